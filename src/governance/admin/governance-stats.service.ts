import { Inject, Injectable } from '@nestjs/common';
import { ClientUsage, LEDGER_STORE, LedgerStore } from '../../ledger/ledger-store';
import { roundMoney } from '../budget/budget.math';
import { QuotaPolicy } from '../quota/quota.policy';
import { GovernanceRules } from '../rules/governance-rules';
import {
  ClientGovernanceDto,
  ClientStatsDto,
  GovernanceStatsDto,
  StatsTotalsDto,
} from './governance-stats.dto';

/**
 * Governance statistics for the admin API, read from the ledger (LedgerStore
 * usage), so every replica reports the same numbers.
 */
@Injectable()
export class GovernanceStatsService {
  constructor(
    @Inject(LEDGER_STORE) private readonly ledger: LedgerStore,
    private readonly quotas: QuotaPolicy,
    private readonly rules: GovernanceRules,
  ) {}

  async stats(now = Date.now()): Promise<GovernanceStatsDto> {
    const clients = (await this.ledger.usage(now)).map((usage) => this.toStats(usage));
    return { generated_at: new Date(now).toISOString(), totals: totalsOf(clients), clients };
  }

  async client(clientId: string, now = Date.now()): Promise<ClientGovernanceDto> {
    const [usage] = await this.ledger.usage(now, clientId);
    const defaults = this.rules.current.visibility;
    const own = this.rules.clientRules(clientId);
    return {
      ...this.toStats(usage),
      quota: this.quotas.quotaFor(clientId),
      allow: [...(own?.allow ?? defaults.allow)],
      deny: [...defaults.deny, ...(own?.deny ?? [])],
      tool_limits: { ...own?.tool_limits },
    };
  }

  private toStats(usage: ClientUsage): ClientStatsDto {
    const budget = this.quotas.quotaFor(usage.clientId).monthly_budget;
    return {
      client_id: usage.clientId,
      calls_this_minute: usage.callsThisMinute,
      calls_today: usage.callsToday,
      calls_this_month: usage.callsThisMonth,
      spend_this_month: roundMoney(usage.spendThisMonth),
      monthly_budget: budget,
      remaining_budget: roundMoney(Math.max(0, budget - usage.spendThisMonth)),
      denials_by_reason: { ...usage.denialsByReason },
      top_tools: usage.topTools.map((t) => ({ tool: t.target, calls: t.calls })),
    };
  }
}

function totalsOf(clients: ClientStatsDto[]): StatsTotalsDto {
  const totals: StatsTotalsDto = {
    clients: clients.length,
    calls_this_minute: 0,
    calls_today: 0,
    calls_this_month: 0,
    spend_this_month: 0,
    denials_by_reason: {},
  };
  for (const c of clients) {
    totals.calls_this_minute += c.calls_this_minute;
    totals.calls_today += c.calls_today;
    totals.calls_this_month += c.calls_this_month;
    totals.spend_this_month = roundMoney(totals.spend_this_month + c.spend_this_month);
    for (const [reason, count] of Object.entries(c.denials_by_reason)) {
      totals.denials_by_reason[reason] = (totals.denials_by_reason[reason] ?? 0) + count;
    }
  }
  return totals;
}
