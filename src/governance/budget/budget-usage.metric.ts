import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { OTHER_CLIENTS } from '../../observability/client-labels';
import { ScrapeTimeGauge } from '../../observability/scrape-time.gauge';
import { BUDGET_USED_RATIO } from '../governance.constants';
import { QuotaPolicy } from '../quota/quota.policy';
import { GovernanceRules } from '../rules/governance-rules';
import { utcMonthKey } from './utc-month';

interface MonthSpend {
  month: string;
  spend: number;
}

/**
 * mcp_budget_used_ratio{client}: each client's spend this UTC month over
 * its `monthly_budget`, fed by the same updates as mcp_budget_spend and under
 * the same label policy (GovernanceMetrics gives the label). Clients with a
 * label of their own are divided by their budget at scrape time, so a budget
 * raised by a rules reload shows at once; "other" is the highest ratio among
 * the rest this month, taken when their spend changed. No series while
 * governance is off, nor for a budget of 0 (nothing may be spent at all).
 */
@Injectable()
export class BudgetUsageMetric implements OnModuleInit, OnApplicationShutdown {
  /** At most metrics.client_label_limit entries: only clients with a label of their own. */
  private readonly own = new Map<string, MonthSpend>();
  private other: { month: string; ratio: number } = { month: '', ratio: 0 };
  private readonly gauge: ScrapeTimeGauge<'client'>;

  constructor(
    private readonly rules: GovernanceRules,
    private readonly quotas: QuotaPolicy,
  ) {
    this.gauge = new ScrapeTimeGauge(
      {
        name: BUDGET_USED_RATIO,
        help: 'Spend of each client this UTC month over its monthly_budget (1 = all spent); client="other" is the highest ratio among the clients past metrics.client_label_limit',
        labelNames: ['client'],
      },
      (gauge) => {
        gauge.reset();
        for (const [client, ratio] of this.ratios(Date.now())) gauge.set({ client }, ratio);
      },
    );
  }

  /** A client's spend this month changed; `label` is its label value (its id, or "other"). */
  spent(label: string, clientId: string, spend: number, now: number): void {
    const month = utcMonthKey(now);
    if (label !== OTHER_CLIENTS) {
      this.own.set(clientId, { month, spend });
      return;
    }
    const ratio = this.ratioOf(clientId, spend);
    if (ratio === undefined) return;
    if (month !== this.other.month || ratio > this.other.ratio) this.other = { month, ratio };
  }

  /** The series as a scrape at `now` shows them, by label value. */
  ratios(now: number): Map<string, number> {
    const found = new Map<string, number>();
    if (!this.rules.enabled) return found;
    const month = utcMonthKey(now);
    for (const [clientId, last] of this.own) {
      // Nothing spent yet this month: the last value read belongs to an earlier one.
      const ratio = this.ratioOf(clientId, last.month === month ? last.spend : 0);
      if (ratio !== undefined) found.set(clientId, ratio);
    }
    if (this.other.month === month) found.set(OTHER_CLIENTS, this.other.ratio);
    return found;
  }

  onModuleInit(): void {
    this.gauge.start();
  }

  onApplicationShutdown(): void {
    this.gauge.stop();
  }

  private ratioOf(clientId: string, spend: number): number | undefined {
    const budget = this.quotas.quotaFor(clientId).monthly_budget;
    return budget > 0 ? spend / budget : undefined;
  }
}
