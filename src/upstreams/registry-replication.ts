import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { errorChain } from './error-chain';
import { TrailingThrottle } from './trailing-throttle';
import { isScaleOut } from './upstream-record-store.provider';
import { UpstreamRegistryService } from './upstream-registry.service';

/** The channel (after `state.key_prefix`) on which replicas announce registry writes. */
export const REGISTRY_CHANNEL = 'upstreams:registry';
/** How often each replica compares the shared store's revision with the one it loaded. */
export const REGISTRY_POLL_MS = 5_000;
/** Announcements (from anyone who can publish on Redis) cause at most one scan per this gap. */
const ANNOUNCE_GAP_MS = 250;
/** An announcement is a few bytes; anything longer is not one. */
const MAX_MESSAGE_CHARS = 1_024;
/** Each poll waits POLL_MS times a factor in [1 - JITTER, 1 + JITTER], so replicas do not poll in step. */
const POLL_JITTER = 0.2;

interface RegistryMessage {
  origin: string;
}

/**
 * Scale-out mode: a record written on one replica reaches the others. The
 * writer announces it on a Redis channel and every other replica scans again
 * at once; as a net under lost messages (Redis away, a replica reconnecting),
 * every replica also polls the store's revision with jitter. A refresh that
 * fails keeps the old snapshot and marks the registry degraded.
 */
@Injectable()
export class RegistryReplication implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Upstreams');
  private readonly origin = randomUUID();
  private readonly channel: string;
  private publisher?: Redis;
  private subscriber?: Redis;
  private poller?: NodeJS.Timeout;
  private seenRevision?: string;
  private stopped = false;
  private readonly announced = new TrailingThrottle(ANNOUNCE_GAP_MS, () => {
    void this.registry.rescan('replica');
  });

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly registry: UpstreamRegistryService,
  ) {
    this.channel = `${config.state.key_prefix}${REGISTRY_CHANNEL}`;
  }

  get enabled(): boolean {
    return isScaleOut(this.config) && this.registry.recordStore.kind === 'postgres';
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled) return;
    const RedisClient = loadRedis();
    this.publisher = new RedisClient(this.config.state.redis_url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 1_000,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    });
    this.publisher.on('error', () => undefined);
    // The subscriber queues its SUBSCRIBE until connected and re-subscribes after each reconnect.
    this.subscriber = new RedisClient(this.config.state.redis_url, {
      maxRetriesPerRequest: null,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    });
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.channel) this.receive(text);
    });
    this.subscriber
      .subscribe(this.channel)
      .catch((error: unknown) =>
        this.logger.warn({ msg: 'registry channel not subscribed', error: errorChain(error) }),
      );
    this.seenRevision = await this.registry.recordStore.revision().catch(() => undefined);
    this.schedulePoll();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.poller);
    this.announced.cancel();
    this.publisher?.disconnect();
    this.subscriber?.disconnect();
  }

  /** Tells the other replicas that the shared store changed; false when Redis did not take it. */
  async announce(): Promise<boolean> {
    if (!this.publisher) return true;
    try {
      const message: RegistryMessage = { origin: this.origin };
      await this.publisher.publish(this.channel, JSON.stringify(message));
      return true;
    } catch (error) {
      this.logger.warn({
        msg: 'registry change not announced to other replicas (they find it by polling)',
        error: errorChain(error),
      });
      return false;
    }
  }

  private receive(text: string): void {
    if (text.length > MAX_MESSAGE_CHARS) {
      this.logger.warn({ msg: 'oversized registry message ignored', chars: text.length });
      return;
    }
    let message: Partial<RegistryMessage>;
    try {
      message = JSON.parse(text) as Partial<RegistryMessage>;
    } catch {
      this.logger.warn({ msg: 'unreadable registry message ignored' });
      return;
    }
    if (message.origin === this.origin) return;
    this.announced.call();
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    const factor = 1 - POLL_JITTER + Math.random() * 2 * POLL_JITTER;
    this.poller = setTimeout(() => void this.poll(), Math.round(REGISTRY_POLL_MS * factor));
    this.poller.unref();
  }

  private async poll(): Promise<void> {
    try {
      const revision = await this.registry.recordStore.revision();
      // A degraded registry scans again even at an unchanged revision: it may work now.
      if (revision !== this.seenRevision || this.registry.degraded) {
        await this.registry.rescan('poll');
        if (!this.registry.degraded) this.seenRevision = revision;
      }
    } catch {
      // The store is away: the scan fails the same way and marks the registry degraded.
      await this.registry.rescan('poll');
    } finally {
      this.schedulePoll();
    }
  }
}

/** ioredis is loaded only in scale-out mode. */
function loadRedis(): typeof Redis {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load needs a synchronous require
  return (require('ioredis') as typeof import('ioredis')).default;
}
