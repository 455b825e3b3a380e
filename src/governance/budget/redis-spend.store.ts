import Redis from 'ioredis';
import { SpendStore } from './spend.store';

// Seed only what is missing: two replicas seeding at once keep the first value.
const SEED_SCRIPT = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return ARGV[1] end
return redis.call('GET', KEYS[1])
`;

// Only a seeded spend grows; a missing one is re-read from the ledger (which has this call).
const ADD_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('INCRBYFLOAT', KEYS[1], ARGV[1]) end
return false
`;

interface SpendCommands {
  owlclawSpendSeed(key: string, value: number, ttlMs: number): Promise<string>;
  owlclawSpendAdd(key: string, amount: number): Promise<string | null>;
}

/**
 * The spend cache shared by every replica (state.driver redis): one
 * month-scoped key per client, `<prefix>spend:{<client>}:<YYYY-MM>`, grown
 * with INCRBYFLOAT.
 */
export class RedisSpendStore implements SpendStore {
  private readonly redis: Redis & SpendCommands;

  constructor(
    redis: Redis,
    private readonly keyPrefix: string,
  ) {
    redis.defineCommand('owlclawSpendSeed', { numberOfKeys: 1, lua: SEED_SCRIPT });
    redis.defineCommand('owlclawSpendAdd', { numberOfKeys: 1, lua: ADD_SCRIPT });
    this.redis = redis as Redis & SpendCommands;
  }

  async get(clientId: string, month: string): Promise<number | undefined> {
    const value = await this.redis.get(this.key(clientId, month));
    return value === null ? undefined : Number(value);
  }

  async seed(clientId: string, month: string, value: number, ttlMs: number): Promise<number> {
    const ttl = Math.max(1, Math.round(ttlMs));
    return Number(await this.redis.owlclawSpendSeed(this.key(clientId, month), value, ttl));
  }

  async add(clientId: string, month: string, amount: number): Promise<number | undefined> {
    const value = await this.redis.owlclawSpendAdd(this.key(clientId, month), amount);
    return value === null ? undefined : Number(value);
  }

  private key(clientId: string, month: string): string {
    return `${this.keyPrefix}{${clientId}}:${month}`;
  }
}
