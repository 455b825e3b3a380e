import { Inject, Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter } from 'prom-client';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { DEFAULT_CONFIG } from '../config/config.defaults';
import { GatewayConfig } from '../config/gateway-config';
import { ClientLabels } from '../observability/client-labels';
import { BudgetUsageMetrics } from './budget/budget-usage.metrics';
import { GOVERNANCE_DECISIONS_TOTAL } from './governance.constants';

export type DecisionLabel = 'allow' | 'deny';

/**
 * Governance metrics: decisions by outcome and reason, and each client's
 * spend this month (BudgetUsageMetrics keeps it, under a label of the
 * client's own for the first `metrics.client_label_limit` clients and
 * "other" for the rest).
 */
@Injectable()
export class GovernanceMetrics {
  private readonly clients: ClientLabels;

  constructor(
    @InjectMetric(GOVERNANCE_DECISIONS_TOTAL)
    private readonly decisions: Counter<'decision' | 'reason'>,
    private readonly usage: BudgetUsageMetrics,
    @Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, 'metrics'> = DEFAULT_CONFIG,
  ) {
    this.clients = new ClientLabels(config.metrics.client_label_limit);
  }

  decision(decision: DecisionLabel, reason: string): void {
    this.decisions.inc({ decision, reason });
  }

  spendOf(clientId: string, value: number, now = Date.now()): void {
    this.usage.spent(this.clients.labelFor(clientId), clientId, value, now);
  }
}
