import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { roundMoney } from '../../governance/budget/budget.math';
import { QuotaPolicy } from '../../governance/quota/quota.policy';
import { GovernanceRules } from '../../governance/rules/governance-rules';
import { LEDGER_STORE, LedgerStore } from '../../ledger/ledger-store';
import { AlertCheck, AlertObservation, CheckOutcome } from '../alert-observation';
import { ALERT_LIMITS } from '../alerts.constants';
import { clipLabel } from './alert-label';

/** One client's spend this month against its monthly budget. */
export interface ClientSpend {
  clientId: string;
  spend: number;
  budget: number;
}

/**
 * Clients whose spend this month reached `percent` of their monthly budget,
 * the highest share first, at most ALERT_LIMITS.maxFiringPerRule of them. A
 * budget of 0 refuses every costly call already; it is not alerted on.
 */
export function budgetsAbove(spends: readonly ClientSpend[], percent: number): AlertObservation[] {
  return spends
    .filter((c) => c.budget > 0 && (c.spend / c.budget) * 100 >= percent)
    .map((c) => ({ ...c, share: c.spend / c.budget }))
    .sort((a, b) => b.share - a.share)
    .slice(0, ALERT_LIMITS.maxFiringPerRule)
    .map((c): AlertObservation => ({
      alert: 'budget',
      severity: 'warning',
      labels: { client: clipLabel(c.clientId) },
      summary: `Client ${clipLabel(c.clientId)} has spent ${(c.share * 100).toFixed(1)} % of its monthly budget (${roundMoney(c.spend)} of ${c.budget}); the threshold is ${percent} %.`,
    }));
}

/**
 * Budgets past `percent`, from the ledger's usage summary (the query behind
 * the admin API's statistics, one per evaluation), so every replica sees the
 * same spend. Needs governance and the ledger on.
 */
@Injectable()
export class BudgetCheck implements AlertCheck {
  readonly alert = 'budget';
  readonly active: boolean;
  private readonly percent: number;

  constructor(
    @Inject(LEDGER_STORE) private readonly ledger: LedgerStore,
    private readonly quotas: QuotaPolicy,
    private readonly rules: GovernanceRules,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.active = config.alerts.rules.budget.enabled && config.ledger.enabled;
    this.percent = config.alerts.rules.budget.percent;
  }

  async evaluate(now: number): Promise<CheckOutcome> {
    // Governance can be switched off at run time; budgets then bind no one.
    if (!this.rules.enabled) return [];
    const usage = await this.ledger.usage(now);
    const spends = usage.map((u) => ({
      clientId: u.clientId,
      spend: u.spendThisMonth,
      budget: this.quotas.quotaFor(u.clientId).monthly_budget,
    }));
    return budgetsAbove(spends, this.percent);
  }
}
