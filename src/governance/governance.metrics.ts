import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter, Gauge } from 'prom-client';
import { BUDGET_SPEND, GOVERNANCE_DECISIONS_TOTAL } from './governance.constants';

export type DecisionLabel = 'allow' | 'deny';

/** Governance metrics: decisions by outcome and reason, and each client's spend this month. */
@Injectable()
export class GovernanceMetrics {
  constructor(
    @InjectMetric(GOVERNANCE_DECISIONS_TOTAL)
    private readonly decisions: Counter<'decision' | 'reason'>,
    @InjectMetric(BUDGET_SPEND) private readonly spend: Gauge<'client'>,
  ) {}

  decision(decision: DecisionLabel, reason: string): void {
    this.decisions.inc({ decision, reason });
  }

  spendOf(clientId: string, value: number): void {
    this.spend.set({ client: clientId }, value);
  }
}
