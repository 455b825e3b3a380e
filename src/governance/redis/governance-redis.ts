import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import type { RedisOptions } from 'ioredis';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';

/*
 * Calls must fail fast while Redis is away (fail closed or open at once, not
 * after a queue drains), so there is no offline queue and every command has a
 * deadline; reconnection keeps trying in the background, at most a second apart.
 */
const OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 1_000,
  connectTimeout: 2_000,
  retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
};

/** Longest boot waits for a first connection before serving (calls fail closed meanwhile). */
const BOOT_WAIT_MS = 2_000;

/**
 * The Redis connection shared by the scale-out governance stores (counters,
 * spend, rules fan-out). Absent when `state.driver` is memory.
 */
@Injectable()
export class GovernanceRedis implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('GovernanceRedis');
  readonly client?: Redis;
  /** `state.key_prefix`: every key and channel this gateway uses starts with it. */
  readonly prefix: string;
  private readonly url: string;
  private reportedDown = false;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.prefix = config.state.key_prefix;
    this.url = redactUrl(config.state.redis_url);
    if (config.state.driver !== 'redis') return;
    this.client = new (loadRedis())(config.state.redis_url, OPTIONS);
    this.client.on('ready', () => {
      this.logger.log({ msg: 'redis connected', url: this.url });
      this.reportedDown = false;
    });
    // Without a listener ioredis prints every failed reconnect; one warning per outage is enough.
    this.client.on('error', (err: Error) => {
      if (this.reportedDown) return;
      this.reportedDown = true;
      this.logger.warn({ msg: 'redis unreachable', url: this.url, error: err.message });
    });
  }

  get ready(): boolean {
    return this.client?.status === 'ready';
  }

  /** One PING for health checks; fails at once while the connection is not ready (no offline queue). */
  async ping(): Promise<void> {
    const client = this.client;
    if (!client) return;
    if (!this.ready) throw new Error(`connection ${client.status}`);
    await client.ping();
  }

  /**
   * Listens to one channel on a connection of its own (a subscribed
   * connection can run nothing else), re-subscribing after every reconnect;
   * undefined without Redis. Disconnect the returned connection to stop.
   */
  subscribe(channel: string, onMessage: (text: string) => void): Redis | undefined {
    const subscriber = this.duplicate();
    if (!subscriber) return undefined;
    // Errors are reported once per outage by the main connection.
    subscriber.on('error', () => undefined);
    subscriber.on('message', (from: string, text: string) => {
      if (from === channel) onMessage(text);
    });
    subscriber
      .subscribe(channel)
      .catch((err: unknown) =>
        this.logger.warn({ msg: 'channel not subscribed', channel, error: String(err) }),
      );
    return subscriber;
  }

  /** A second connection for subscriptions (a subscribed connection can run nothing else). */
  duplicate(): Redis | undefined {
    // The subscriber queues its SUBSCRIBE until connected and re-subscribes after each reconnect.
    return this.client?.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
  }

  async onModuleInit(): Promise<void> {
    const client = this.client;
    if (!client || this.ready) return;
    // Ready, refused, or silent for a while: either way boot goes on (reconnection continues).
    let timer: NodeJS.Timeout | undefined;
    let settle = (): void => undefined;
    await new Promise<void>((resolve) => {
      settle = resolve;
      timer = setTimeout(resolve, BOOT_WAIT_MS);
      client.once('ready', resolve);
      client.once('error', resolve);
    });
    clearTimeout(timer);
    client.off('ready', settle);
    client.off('error', settle);
    if (!this.ready) {
      this.logger.warn({
        msg: 'starting without redis: governed calls are refused until it answers (or let through with governance.fail_open)',
        url: this.url,
      });
    }
  }

  onApplicationShutdown(): void {
    this.client?.disconnect();
  }
}

/** Credentials never reach a log line. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'redis://(unparseable url)';
  }
}

/**
 * ioredis is loaded only when state.driver is redis: a single replica on the
 * memory driver (the default) is spared its memory (docs/performance.md).
 */
function loadRedis(): typeof Redis {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load needs a synchronous require
  return (require('ioredis') as typeof import('ioredis')).default;
}
