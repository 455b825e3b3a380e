import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LedgerModule } from '../ledger/ledger.module';
import { GatewayHealthIndicator } from './gateway.health';
import { HealthController } from './health.controller';
import { ShutdownDeadline } from './shutdown.deadline';
import { ShutdownState } from './shutdown.state';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), LedgerModule],
  controllers: [HealthController],
  providers: [GatewayHealthIndicator, ShutdownState, ShutdownDeadline],
  exports: [GatewayHealthIndicator],
})
export class HealthModule {}
