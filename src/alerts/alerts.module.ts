import { Module } from '@nestjs/common';
import { makeCounterProvider, makeGaugeProvider } from '@willsoto/nestjs-prometheus';
import { LedgerModule } from '../ledger/ledger.module';
import { UpstreamsModule } from '../upstreams/upstreams.module';
import { alertWebhooksProvider } from './alert-webhooks.provider';
import {
  MCP_ALERT_EVALUATIONS_TOTAL,
  MCP_ALERT_NOTIFICATIONS_TOTAL,
  MCP_ALERTS_FIRING,
} from './alerts-metrics.constants';
import { AlertsEvaluator } from './alerts.evaluator';
import { AlertsMetrics } from './alerts.metrics';
import { BudgetCheck } from './checks/budget.check';
import { ErrorRateCheck } from './checks/error-rate.check';
import { LedgerUnwritableCheck } from './checks/ledger-unwritable.check';
import { RedisDownCheck } from './checks/redis-down.check';
import { UpstreamDownCheck } from './checks/upstream-down.check';

/**
 * Alerts (`alerts` config section): rules over the ledger, Redis, the error
 * rate, upstreams and budgets, evaluated periodically and delivered as JSON
 * to webhooks, de-duplicated and rate-limited; also the mcp_alerts_firing
 * metric. Governance (Redis, quotas) and metrics come from global modules.
 */
@Module({
  imports: [LedgerModule, UpstreamsModule],
  providers: [
    alertWebhooksProvider,
    AlertsMetrics,
    LedgerUnwritableCheck,
    RedisDownCheck,
    ErrorRateCheck,
    UpstreamDownCheck,
    BudgetCheck,
    AlertsEvaluator,
    makeGaugeProvider({
      name: MCP_ALERTS_FIRING,
      help: 'Instances of each alert firing now on this replica (1/0 for single alerts; upstreams or clients for upstream_down and budget)',
      labelNames: ['alert'],
    }),
    makeCounterProvider({
      name: MCP_ALERT_NOTIFICATIONS_TOTAL,
      help: 'Alert notifications by outcome, one per webhook: sent, failed (every attempt), dropped (queue full)',
      labelNames: ['outcome'],
    }),
    makeCounterProvider({
      name: MCP_ALERT_EVALUATIONS_TOTAL,
      help: 'Alert evaluations completed (a stalled count means the evaluation loop stopped)',
    }),
  ],
})
export class AlertsModule {}
