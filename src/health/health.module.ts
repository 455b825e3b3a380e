import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LedgerModule } from '../ledger/ledger.module';
import { UpstreamsModule } from '../upstreams/upstreams.module';
import { GatewayHealthIndicator } from './gateway.health';
import { HealthController } from './health.controller';
import { ShutdownDeadline } from './shutdown.deadline';
import { ShutdownState } from './shutdown.state';
import { UpstreamsHealthIndicator } from './upstreams.health';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), LedgerModule, UpstreamsModule],
  controllers: [HealthController],
  providers: [GatewayHealthIndicator, UpstreamsHealthIndicator, ShutdownState, ShutdownDeadline],
  exports: [GatewayHealthIndicator, ShutdownState],
})
export class HealthModule {}
