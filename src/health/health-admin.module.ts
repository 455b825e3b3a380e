import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthAdminController } from './health-admin.controller';
import { HealthModule } from './health.module';

/**
 * GET /admin/health, in a module of its own: the admin OpenAPI document
 * takes in every route of a module with an admin controller, and the public
 * probes must stay out of it.
 */
@Module({
  imports: [TerminusModule.forRoot({ logger: false }), HealthModule],
  controllers: [HealthAdminController],
})
export class HealthAdminModule {}
