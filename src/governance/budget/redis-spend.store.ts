import Redis from 'ioredis';
import { MONEY_EPSILON } from './budget.math';
import { BudgetClaim, ClaimOutcome, SpendSeed, SpendStore } from './spend.store';

/**
 * Shared by both scripts: the server's clock (one clock for every replica),
 * lapsed claims dropped from the reserved total, and the total reset to 0
 * when nothing is held (sums of fractions drift).
 * KEYS: the spend hash (spent, reserved), the claims' deadlines (sorted set),
 * the claims' amounts (hash).
 */
const PURGE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function purge()
  local lapsed = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
  for _, id in ipairs(lapsed) do
    local amount = redis.call('HGET', KEYS[3], id)
    redis.call('HDEL', KEYS[3], id)
    if amount and redis.call('EXISTS', KEYS[1]) == 1 then
      redis.call('HINCRBYFLOAT', KEYS[1], 'reserved', -tonumber(amount))
    end
  end
  if #lapsed > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now) end
  if redis.call('ZCARD', KEYS[2]) == 0 and redis.call('EXISTS', KEYS[1]) == 1 then
    redis.call('HSET', KEYS[1], 'reserved', '0')
  end
end
local function fmt(x) return string.format('%.17g', x) end
`;

// ARGV: claim id, amount, budget, refuseWhenSpent (1/0), claim ttl ms, seed value ('' for none), seed ttl ms.
const RESERVE_SCRIPT = `${PURGE}
purge()
if redis.call('EXISTS', KEYS[1]) == 0 then
  if ARGV[6] == '' then return {'cold'} end
  -- Claims that outlived their spend (it expired or was flushed) still hold their amounts.
  local held = 0
  for _, amount in ipairs(redis.call('HVALS', KEYS[3])) do held = held + tonumber(amount) end
  redis.call('HSET', KEYS[1], 'spent', ARGV[6], 'reserved', fmt(held))
  redis.call('PEXPIRE', KEYS[1], ARGV[7])
end
local spent = tonumber(redis.call('HGET', KEYS[1], 'spent'))
local reserved = tonumber(redis.call('HGET', KEYS[1], 'reserved'))
local amount = tonumber(ARGV[2])
local budget = tonumber(ARGV[3])
local eps = ${MONEY_EPSILON}
local fits = true
if amount > 0 then fits = spent + reserved + amount - budget <= eps
elseif ARGV[4] == '1' then fits = budget - spent - reserved > eps end
if not fits then return {'refused', fmt(spent), fmt(reserved)} end
if amount == 0 then return {'reserved', fmt(spent), fmt(reserved)} end
local ttl = tonumber(ARGV[5])
redis.call('ZADD', KEYS[2], now + ttl, ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
redis.call('HINCRBYFLOAT', KEYS[1], 'reserved', ARGV[2])
-- The spend and the claims outlive every claim, so a settling call always finds them.
for _, key in ipairs(KEYS) do
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
return {'reserved', fmt(spent), fmt(reserved)}
`;

// ARGV: claim id ('' for none), cost. A cost above the claim's amount adds the amount: what was reserved.
const SETTLE_SCRIPT = `${PURGE}
local cost = ARGV[2]
if ARGV[1] ~= '' then
  local amount = redis.call('HGET', KEYS[3], ARGV[1])
  if amount then
    redis.call('HDEL', KEYS[3], ARGV[1])
    redis.call('ZREM', KEYS[2], ARGV[1])
    if redis.call('EXISTS', KEYS[1]) == 1 then
      redis.call('HINCRBYFLOAT', KEYS[1], 'reserved', -tonumber(amount))
    end
    if tonumber(cost) > tonumber(amount) then cost = amount end
  end
end
purge()
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if tonumber(cost) ~= 0 then redis.call('HINCRBYFLOAT', KEYS[1], 'spent', cost) end
return redis.call('HGET', KEYS[1], 'spent')
`;

interface SpendCommands {
  owlclawBudgetReserve(
    spend: string,
    deadlines: string,
    amounts: string,
    ...args: Array<string | number>
  ): Promise<string[]>;
  owlclawBudgetSettle(
    spend: string,
    deadlines: string,
    amounts: string,
    claimId: string,
    cost: string,
  ): Promise<string | null>;
}

/**
 * The spend and reservations shared by every replica (state.driver redis):
 * per client and month, `<prefix>{<client>}:<YYYY-MM>:budget` (spent,
 * reserved), `...:claims` (each claim's deadline) and `...:amounts`; the
 * check and the reservation are one Lua script, so replicas cannot both
 * pass against the same spend.
 */
export class RedisSpendStore implements SpendStore {
  private readonly redis: Redis & SpendCommands;

  constructor(
    redis: Redis,
    private readonly keyPrefix: string,
  ) {
    redis.defineCommand('owlclawBudgetReserve', { numberOfKeys: 3, lua: RESERVE_SCRIPT });
    redis.defineCommand('owlclawBudgetSettle', { numberOfKeys: 3, lua: SETTLE_SCRIPT });
    this.redis = redis as Redis & SpendCommands;
  }

  async reserve(
    clientId: string,
    month: string,
    claim: BudgetClaim,
    seed?: SpendSeed,
  ): Promise<ClaimOutcome> {
    const [status, spent, reserved] = await this.redis.owlclawBudgetReserve(
      ...this.keys(clientId, month),
      claim.id,
      String(claim.amount),
      String(claim.budget),
      claim.refuseWhenSpent ? 1 : 0,
      wholeMs(claim.ttlMs),
      seed ? String(seed.value) : '',
      seed ? wholeMs(seed.ttlMs) : 0,
    );
    if (status === 'cold') return { status };
    return {
      status: status === 'reserved' ? 'reserved' : 'refused',
      spent: Number(spent),
      reserved: Number(reserved),
    };
  }

  async settle(
    clientId: string,
    month: string,
    claimId: string | undefined,
    cost: number,
  ): Promise<number | undefined> {
    const spent = await this.redis.owlclawBudgetSettle(
      ...this.keys(clientId, month),
      claimId ?? '',
      String(cost),
    );
    return spent === null ? undefined : Number(spent);
  }

  async get(clientId: string, month: string) {
    const [spent, reserved] = await this.redis.hmget(
      this.keys(clientId, month)[0],
      'spent',
      'reserved',
    );
    if (spent === null) return undefined;
    return { spent: Number(spent), reserved: Number(reserved ?? 0) };
  }

  private keys(clientId: string, month: string): [string, string, string] {
    // One hash tag per client and month: the three keys live in one cluster slot.
    const base = `${this.keyPrefix}{${clientId}:${month}}`;
    return [`${base}:budget`, `${base}:claims`, `${base}:amounts`];
  }
}

function wholeMs(ms: number): number {
  return Math.max(1, Math.round(ms));
}
