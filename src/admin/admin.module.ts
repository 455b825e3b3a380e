import { Module } from '@nestjs/common';
import { HealthAdminModule } from '../health/health-admin.module';
import { LedgerModule } from '../ledger/ledger.module';
import { AdminOpenApiController } from './admin-openapi.controller';
import { AdminOpenApiDocument } from './admin-openapi.document';
import { AdminTokenGuard } from './admin-token.guard';
import { LedgerAdminController } from './ledger-admin.controller';

/**
 * The admin HTTP API under /admin. To add endpoints: write a controller
 * decorated with @AdminController(path, tag) (guard and OpenAPI security
 * come with it) in any module; it then appears in GET /admin/openapi.json
 * as well.
 */
@Module({
  imports: [LedgerModule, HealthAdminModule],
  controllers: [LedgerAdminController, AdminOpenApiController],
  providers: [AdminTokenGuard, AdminOpenApiDocument],
  exports: [AdminTokenGuard],
})
export class AdminModule {}
