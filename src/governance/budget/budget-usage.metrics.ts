import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { OTHER_CLIENTS } from '../../observability/client-labels';
import { ScrapeTimeGauge } from '../../observability/scrape-time.gauge';
import { BUDGET_SPEND, BUDGET_USED_RATIO } from '../governance.constants';
import { QuotaPolicy } from '../quota/quota.policy';
import { GovernanceRules } from '../rules/governance-rules';
import { utcMonthKey } from './utc-month';

interface MonthSpend {
  month: string;
  spend: number;
}

/**
 * The budget series of each client, both read at scrape time so that a new
 * UTC month shows at once, whether or not the client spends again:
 * - mcp_budget_spend{client}: spend this month (0 for a client with a label
 *   that has spent nothing yet this month);
 * - mcp_budget_used_ratio{client}: that spend over its `monthly_budget` in
 *   force when scraped (a budget raised by a rules reload shows at once).
 * Labels follow GovernanceMetrics' policy: clients past
 * `metrics.client_label_limit` share "other", the highest spend and the
 * highest ratio among them this month, which needs no memory per client (a
 * spend only grows within a month). No series while governance is off; no
 * ratio for a budget of 0 (nothing may be spent at all).
 */
@Injectable()
export class BudgetUsageMetrics implements OnModuleInit, OnApplicationShutdown {
  /** At most metrics.client_label_limit entries: only clients with a label of their own. */
  private readonly own = new Map<string, MonthSpend>();
  private otherSpend: MonthSpend = { month: '', spend: 0 };
  private otherRatio: { month: string; ratio: number } = { month: '', ratio: 0 };
  private readonly gauges: readonly ScrapeTimeGauge<'client'>[];

  constructor(
    private readonly rules: GovernanceRules,
    private readonly quotas: QuotaPolicy,
  ) {
    this.gauges = [
      this.scraped(
        BUDGET_SPEND,
        'Spend of each client in the current UTC month (budget units); client="other" is the highest spend among the clients past metrics.client_label_limit',
        (now) => this.spends(now),
      ),
      this.scraped(
        BUDGET_USED_RATIO,
        'Spend of each client this UTC month over its monthly_budget (1 = all spent); client="other" is the highest ratio among the clients past metrics.client_label_limit',
        (now) => this.ratios(now),
      ),
    ];
  }

  /** A client's spend this month changed; `label` is its label value (its id, or "other"). */
  spent(label: string, clientId: string, spend: number, now: number): void {
    const month = utcMonthKey(now);
    if (label !== OTHER_CLIENTS) {
      this.own.set(clientId, { month, spend });
      return;
    }
    if (month !== this.otherSpend.month || spend > this.otherSpend.spend) {
      this.otherSpend = { month, spend };
    }
    const ratio = this.ratioOf(clientId, spend);
    if (ratio === undefined) return;
    if (month !== this.otherRatio.month || ratio > this.otherRatio.ratio) {
      this.otherRatio = { month, ratio };
    }
  }

  /** mcp_budget_spend as a scrape at `now` shows it, by label value. */
  spends(now: number): Map<string, number> {
    const found = new Map<string, number>();
    if (!this.rules.enabled) return found;
    const month = utcMonthKey(now);
    // Nothing spent yet this month: the last value read belongs to an earlier one.
    for (const [clientId, last] of this.own)
      found.set(clientId, last.month === month ? last.spend : 0);
    if (this.otherSpend.month === month) found.set(OTHER_CLIENTS, this.otherSpend.spend);
    return found;
  }

  /** mcp_budget_used_ratio as a scrape at `now` shows it, by label value. */
  ratios(now: number): Map<string, number> {
    const found = new Map<string, number>();
    for (const [label, spend] of this.spends(now)) {
      if (label === OTHER_CLIENTS) continue;
      const ratio = this.ratioOf(label, spend);
      if (ratio !== undefined) found.set(label, ratio);
    }
    if (this.rules.enabled && this.otherRatio.month === utcMonthKey(now)) {
      found.set(OTHER_CLIENTS, this.otherRatio.ratio);
    }
    return found;
  }

  onModuleInit(): void {
    for (const gauge of this.gauges) gauge.start();
  }

  onApplicationShutdown(): void {
    for (const gauge of this.gauges) gauge.stop();
  }

  private scraped(
    name: string,
    help: string,
    read: (now: number) => Map<string, number>,
  ): ScrapeTimeGauge<'client'> {
    return new ScrapeTimeGauge({ name, help, labelNames: ['client'] }, (gauge) => {
      gauge.reset();
      for (const [client, value] of read(Date.now())) gauge.set({ client }, value);
    });
  }

  private ratioOf(clientId: string, spend: number): number | undefined {
    const budget = this.quotas.quotaFor(clientId).monthly_budget;
    return budget > 0 ? spend / budget : undefined;
  }
}
