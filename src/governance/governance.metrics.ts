import { Inject, Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter, Gauge } from 'prom-client';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { DEFAULT_CONFIG } from '../config/config.defaults';
import { GatewayConfig } from '../config/gateway-config';
import { ClientLabels, OTHER_CLIENTS } from '../observability/client-labels';
import { BudgetUsageMetric } from './budget/budget-usage.metric';
import { utcMonthKey } from './budget/utc-month';
import { BUDGET_SPEND, GOVERNANCE_DECISIONS_TOTAL } from './governance.constants';

export type DecisionLabel = 'allow' | 'deny';

/**
 * Governance metrics: decisions by outcome and reason, and each client's
 * spend this month. Only `metrics.client_label_limit` clients get a spend
 * series of their own; "other" shows the highest spend among the rest this
 * month, which needs no memory per client (a spend only grows within a month).
 * The same updates, under the same labels, feed mcp_budget_used_ratio.
 */
@Injectable()
export class GovernanceMetrics {
  private readonly clients: ClientLabels;
  private otherMonth = '';
  private otherSpend = 0;

  constructor(
    @InjectMetric(GOVERNANCE_DECISIONS_TOTAL)
    private readonly decisions: Counter<'decision' | 'reason'>,
    @InjectMetric(BUDGET_SPEND) private readonly spend: Gauge<'client'>,
    private readonly usage: BudgetUsageMetric,
    @Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, 'metrics'> = DEFAULT_CONFIG,
  ) {
    this.clients = new ClientLabels(config.metrics.client_label_limit);
  }

  decision(decision: DecisionLabel, reason: string): void {
    this.decisions.inc({ decision, reason });
  }

  spendOf(clientId: string, value: number, now = Date.now()): void {
    const client = this.clients.labelFor(clientId);
    this.usage.spent(client, clientId, value, now);
    if (client !== OTHER_CLIENTS) {
      this.spend.set({ client }, value);
      return;
    }
    const month = utcMonthKey(now);
    if (month !== this.otherMonth || value > this.otherSpend) {
      this.otherMonth = month;
      this.otherSpend = value;
      this.spend.set({ client }, value);
    }
  }
}
