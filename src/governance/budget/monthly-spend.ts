import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { CallObserver, CallObservers, CompletedCall } from '../../json-rpc/call-observers';
import { LEDGER_STORE, LedgerStore } from '../../ledger/ledger-store';
import { GovernanceMetrics } from '../governance.metrics';
import { chargedCost } from '../../ledger/charged-cost';
import { SPEND_STORE, SpendStore } from './spend.store';
import { startOfNextUtcMonth, startOfUtcMonth, utcMonthKey } from './utc-month';

/**
 * How long a cached spend is trusted before it is read from the ledger again.
 * The ledger is the truth; re-reading it now and then heals whatever the
 * cache missed (a cost added while Redis was away, a seed racing a call).
 */
export const SPEND_CACHE_TTL_MS = 60 * 60 * 1000;

/** Kept past the month's end so that calls finishing just after midnight still find it. */
const MONTH_SLACK_MS = 24 * 60 * 60 * 1000;

/**
 * Each client's spend this UTC month: seeded from the ledger (spendSince the
 * first of the month, so it survives restarts), then kept current by adding
 * every completed call's cost as a call observer, instead of summing the
 * month's rows on every call.
 */
@Injectable()
export class MonthlySpend implements CallObserver, OnModuleInit {
  private readonly logger = new Logger('Governance');
  /** One ledger read per client and month at a time, however many calls arrive together. */
  private readonly seeding = new Map<string, Promise<number>>();
  /** With ledger.enabled false the ledger holds nothing: the cache is all there is. */
  private readonly ledgerRecords: boolean;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Inject(SPEND_STORE) private readonly store: SpendStore,
    @Inject(LEDGER_STORE) private readonly ledger: LedgerStore,
    private readonly observers: CallObservers,
    private readonly metrics: GovernanceMetrics,
  ) {
    this.ledgerRecords = config.ledger.enabled;
    if (!this.ledgerRecords && config.governance.enabled) {
      this.logger.warn({
        msg: 'ledger.enabled is false: monthly spend is only cached (lost on restart in memory mode)',
      });
    }
  }

  onModuleInit(): void {
    this.observers.register(this);
  }

  /** The client's spend in the month of `now`; rejects when neither cache nor ledger answers. */
  async current(clientId: string, now = Date.now()): Promise<number> {
    const month = utcMonthKey(now);
    const cached = await this.store.get(clientId, month);
    if (cached !== undefined) return cached;
    const id = `${month}\u0000${clientId}`;
    let seeding = this.seeding.get(id);
    if (!seeding) {
      seeding = this.seed(clientId, month, startOfUtcMonth(now)).finally(() =>
        this.seeding.delete(id),
      );
      this.seeding.set(id, seeding);
    }
    return seeding;
  }

  /**
   * The cached spend when the cache answers synchronously (in-process) and
   * holds one; otherwise undefined, and current() reads it (or the ledger).
   */
  cachedNow(clientId: string, now = Date.now()): number | undefined {
    return this.store.getNow?.(clientId, utcMonthKey(now));
  }

  /** Never rejects: a failure here would turn an answered call into an error. */
  callCompleted(call: CompletedCall): Promise<void> | undefined {
    const cost = chargedCost(call);
    // Most calls cost nothing: nothing to add, and nothing for the dispatcher to wait for.
    return cost > 0 ? this.addSpend(call, cost) : undefined;
  }

  private async addSpend(call: CompletedCall, cost: number): Promise<void> {
    const { clientId } = call.context;
    try {
      // The call belongs to the month it started in, as its ledger row does.
      const spend = await this.store.add(clientId, utcMonthKey(call.startedAt), cost);
      if (spend !== undefined) this.metrics.spendOf(clientId, spend);
    } catch (err) {
      this.logger.warn({
        msg: 'spend cache not updated; it is re-read from the ledger when it expires',
        client: clientId,
        cost,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }

  private async seed(clientId: string, month: string, monthStart: number): Promise<number> {
    const fromLedger = await this.ledger.spendSince(clientId, monthStart);
    const ttl = this.ledgerRecords
      ? SPEND_CACHE_TTL_MS
      : startOfNextUtcMonth(monthStart) + MONTH_SLACK_MS - Date.now();
    const spend = await this.store.seed(clientId, month, fromLedger, ttl);
    this.metrics.spendOf(clientId, spend);
    return spend;
  }
}
