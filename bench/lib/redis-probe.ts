import Redis from 'ioredis';

/**
 * The bench's own connection to the Redis its gateways share: checks it is
 * there before any gateway starts, reads redis-server's CPU time (INFO cpu,
 * so no access to its process is needed), and deletes a run's keys at the end.
 */
export class RedisProbe {
  private constructor(private readonly client: Redis) {}

  static async connect(url: string): Promise<RedisProbe> {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await client.connect();
      await client.ping();
    } catch (err) {
      client.disconnect();
      throw new Error(
        `the replicas section needs Redis at ${url} (--redis-url): ${(err as Error).message}`,
      );
    }
    return new RedisProbe(client);
  }

  /** redis-server's CPU time so far, user and system, all its threads (ms); NaN if not reported. */
  async cpuMs(): Promise<number> {
    const info = await this.client.info('cpu');
    const seconds = (field: string) =>
      Number(new RegExp(`^${field}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);
    return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1000;
  }

  /** Deletes every key that starts with `prefix`; returns how many. */
  async deleteKeys(prefix: string): Promise<number> {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await this.client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) deleted += await this.client.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
    return deleted;
  }

  async close(): Promise<void> {
    await this.client.quit();
  }
}
