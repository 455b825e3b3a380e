import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LedgerModule } from '../ledger/ledger.module';
import { TasksModule } from '../tasks/tasks.module';
import { UpstreamsModule } from '../upstreams/upstreams.module';
import { GatewayHealthIndicator } from './gateway.health';
import { HealthController } from './health.controller';
import { ReadinessChecks } from './readiness.checks';
import { ShutdownDeadline } from './shutdown.deadline';
import { ShutdownState } from './shutdown.state';
import { UpstreamsHealthIndicator } from './upstreams.health';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), LedgerModule, TasksModule, UpstreamsModule],
  controllers: [HealthController],
  providers: [
    GatewayHealthIndicator,
    UpstreamsHealthIndicator,
    ReadinessChecks,
    ShutdownState,
    ShutdownDeadline,
  ],
  exports: [GatewayHealthIndicator, ShutdownState, ReadinessChecks],
})
export class HealthModule {}
