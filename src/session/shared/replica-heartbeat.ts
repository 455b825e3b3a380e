import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { GovernanceRedis } from '../../governance/redis/governance-redis';
import { SessionBus } from './session-bus';

/** How often a replica refreshes its heartbeat. */
export const HEARTBEAT_INTERVAL_MS = 2_000;
/** How long a heartbeat lasts without a refresh: three missed beats mean the replica is gone. */
export const HEARTBEAT_TTL_MS = 6_000;

/**
 * Replica liveness for shared sessions (`state.driver: redis`): this replica
 * keeps a key `<prefix>replica:<id>` alive (refreshed every 2 s, lasting 6 s,
 * deleted on a graceful stop), so that the others can tell a replica that
 * died (SIGKILL, a crash, a lost host) from one that is still working: its
 * key expires at most 6 s after its last beat. Off with the in-process driver.
 */
@Injectable()
export class ReplicaHeartbeat implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('SharedSessions');
  private timer?: NodeJS.Timeout;
  private reportedMiss = false;

  constructor(
    private readonly bus: SessionBus,
    @Optional() private readonly redis?: GovernanceRedis,
  ) {}

  /** After every module's init, so Redis has had its boot wait; before the server listens. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.redis?.client) return;
    await this.beat();
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_INTERVAL_MS);
    // The heartbeat must never keep a finished process alive.
    this.timer.unref();
  }

  /** Before Redis disconnects (onApplicationShutdown), so the delete still reaches it. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.redis?.client?.del(this.key(this.bus.replicaId)).catch(() => undefined);
  }

  /**
   * How long `replicaId`'s heartbeat has left, 0 when it has none (it stopped
   * or died). Throws when Redis cannot say.
   */
  async lifeLeftMs(replicaId: string): Promise<number> {
    const client = this.redis?.client;
    if (!client) return 0;
    return Math.max(await client.pttl(this.key(replicaId)), 0);
  }

  private async beat(): Promise<void> {
    try {
      await this.redis?.client?.set(this.key(this.bus.replicaId), '1', 'PX', HEARTBEAT_TTL_MS);
      this.reportedMiss = false;
    } catch (err) {
      // Once per outage: the next beat repeats it; meanwhile the others may take this replica for dead.
      if (!this.reportedMiss) this.logger.warn({ msg: 'heartbeat not sent', error: String(err) });
      this.reportedMiss = true;
    }
  }

  private key(replicaId: string): string {
    return `${this.redis!.prefix}replica:${replicaId}`;
  }
}
