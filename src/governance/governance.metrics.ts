import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Gauge } from 'prom-client';
import {
  CounterTally,
  InjectCounterTally,
  SeriesByTwoLabels,
} from '../observability/counter-tally';
import { BUDGET_SPEND, GOVERNANCE_DECISIONS_TOTAL } from './governance.constants';

export type DecisionLabel = 'allow' | 'deny';

/** Governance metrics: decisions by outcome and reason, and each client's spend this month. */
@Injectable()
export class GovernanceMetrics {
  private readonly decisions: SeriesByTwoLabels<'decision', 'reason'>;

  constructor(
    @InjectCounterTally(GOVERNANCE_DECISIONS_TOTAL) decisions: CounterTally<'decision' | 'reason'>,
    @InjectMetric(BUDGET_SPEND) private readonly spend: Gauge<'client'>,
  ) {
    this.decisions = new SeriesByTwoLabels(decisions, 'decision', 'reason');
  }

  decision(decision: DecisionLabel, reason: string): void {
    this.decisions.get(decision, reason).inc();
  }

  spendOf(clientId: string, value: number): void {
    this.spend.set({ client: clientId }, value);
  }
}
