import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { isThenable } from '../../common/is-thenable';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { AuditTrail } from '../../json-rpc/audit-trail';
import { CallObserver, CompletedCall } from '../../json-rpc/call-observers';
import { LEDGER_STORE, LedgerStore } from '../../ledger/ledger-store';
import { GovernanceMetrics } from '../governance.metrics';
import { chargedCost } from '../../ledger/charged-cost';
import { BudgetClaim, ClaimOutcome, SPEND_STORE, SpendSeed, SpendStore } from './spend.store';
import { startOfNextUtcMonth, startOfUtcMonth, utcMonthKey } from './utc-month';

/**
 * How long a cached spend is trusted (while no call holds a claim on it)
 * before it is read from the ledger again. The ledger is the truth;
 * re-reading it now and then heals whatever the cache missed (a cost added
 * while Redis was away).
 */
export const SPEND_CACHE_TTL_MS = 60 * 60 * 1000;

/** Kept past the month's end so that calls finishing just after midnight still find it. */
const MONTH_SLACK_MS = 24 * 60 * 60 * 1000;

/** What a call asks of its client's budget (its claim is named apart, by nameClaim). */
export type ClaimRequest = Omit<BudgetClaim, 'id'>;

/** A claim's id and month, known before the store answers. */
export interface ClaimName {
  id: string;
  month: string;
}

/** A claim's answer, and the claim to settle when the call completes (no id: nothing is held). */
export type Claimed = Exclude<ClaimOutcome, { status: 'cold' }> & { id?: string; month: string };

/**
 * Each client's spend this UTC month and the claims of its calls in flight:
 * a call reserves its estimate before it runs (reserve), and settles with
 * what it cost once it completed, as a call observer; a call that did not
 * run settles with 0, which releases its claim. The spend is seeded from the
 * ledger (spendSince the first of the month, so it survives restarts) once,
 * by the first claim that finds none cached.
 */
@Injectable()
export class MonthlySpend implements CallObserver, OnModuleInit {
  private readonly logger = new Logger('Governance');
  /** One ledger read per client and month at a time, however many calls arrive together. */
  private readonly seeding = new Map<string, Promise<SpendSeed>>();
  /** With ledger.enabled false the ledger holds nothing: the cache is all there is. */
  private readonly ledgerRecords: boolean;
  /** Claim ids are this replica's prefix and a count: unique across replicas without a UUID per call. */
  private readonly claimPrefix = randomBytes(9).toString('base64url');
  private claims = 0;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Inject(SPEND_STORE) private readonly store: SpendStore,
    @Inject(LEDGER_STORE) private readonly ledger: LedgerStore,
    private readonly observers: AuditTrail,
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

  /**
   * Names a claim on the budget of the month of `now` before it is made: a
   * reservation whose answer is lost (a Redis command that timed out after
   * its script ran) may be held all the same, so its call settles it by name.
   */
  nameClaim(now = Date.now()): ClaimName {
    return { id: `${this.claimPrefix}:${++this.claims}`, month: utcMonthKey(now) };
  }

  /**
   * Reserves a named claim, or refuses it, in one atomic step of the store
   * (at once when the store answers at once and has the spend cached);
   * fails when neither store nor ledger answers.
   */
  reserve(
    clientId: string,
    name: ClaimName,
    request: ClaimRequest,
    now = Date.now(),
  ): Claimed | Promise<Claimed> {
    const { month } = name;
    const claim: BudgetClaim = { ...request, id: name.id };
    const answered = (outcome: ClaimOutcome) =>
      outcome.status === 'cold'
        ? this.reserveSeeded(clientId, month, claim, now)
        : claimed(outcome, claim, month);
    const outcome = this.store.reserve(clientId, month, claim);
    return isThenable(outcome) ? outcome.then(answered) : answered(outcome);
  }

  /** Never rejects: a failure here would turn an answered call into an error. */
  callCompleted(call: CompletedCall): Promise<void> | undefined {
    const claim = call.context.call.budgetClaim;
    const { cost } = chargedCost(call);
    // A call that costs nothing and held nothing leaves the spend as it is.
    if (!claim && cost <= 0) return undefined;
    const { clientId } = call.context;
    // The call belongs to the month it was claimed in (else started in), as its ledger row does.
    const month = claim?.month ?? utcMonthKey(call.startedAt);
    return this.store.settle(clientId, month, claim?.id, cost).then(
      (spend) => this.settled(clientId, spend),
      (err: unknown) => {
        this.logger.warn({
          msg: 'spend not settled; its claim lapses, and the spend is re-read from the ledger when it expires',
          client: clientId,
          cost,
          error: err instanceof Error ? err.message : String(err),
        });
      },
    );
  }

  private settled(clientId: string, spend: number | undefined): void {
    if (spend !== undefined) this.metrics.spendOf(clientId, spend);
  }

  private async reserveSeeded(
    clientId: string,
    month: string,
    claim: BudgetClaim,
    now: number,
  ): Promise<Claimed> {
    const seed = await this.seedFor(clientId, month, startOfUtcMonth(now));
    const outcome = await this.store.reserve(clientId, month, claim, seed);
    if (outcome.status === 'cold') throw new Error('the spend store did not take the seed');
    this.metrics.spendOf(clientId, outcome.spent);
    return claimed(outcome, claim, month);
  }

  private seedFor(clientId: string, month: string, monthStart: number): Promise<SpendSeed> {
    const key = `${month}\u0000${clientId}`;
    let seeding = this.seeding.get(key);
    if (!seeding) {
      seeding = this.readSeed(clientId, monthStart).finally(() => this.seeding.delete(key));
      this.seeding.set(key, seeding);
    }
    return seeding;
  }

  private async readSeed(clientId: string, monthStart: number): Promise<SpendSeed> {
    const value = await this.ledger.spendSince(clientId, monthStart);
    const ttlMs = this.ledgerRecords
      ? SPEND_CACHE_TTL_MS
      : startOfNextUtcMonth(monthStart) + MONTH_SLACK_MS - Date.now();
    return { value, ttlMs };
  }
}

function claimed(
  outcome: Exclude<ClaimOutcome, { status: 'cold' }>,
  claim: BudgetClaim,
  month: string,
): Claimed {
  const held = outcome.status === 'reserved' && claim.amount > 0;
  return { ...outcome, id: held ? claim.id : undefined, month };
}
