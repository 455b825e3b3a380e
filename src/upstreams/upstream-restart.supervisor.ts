import type { GatewayError } from '../errors/gateway.error';
import { upstreamRestarting } from './upstream-call.errors';
import { RestartBackoff, RestartPolicy } from './restart-backoff';
import type { UpstreamState, UpstreamStatus } from './upstream-state';

/**
 * Owns one upstream's status and the restarts of its crashed stdio child:
 * a failure schedules `restart` after a jittered backoff, too many failures
 * in the window mark the server down, and calls are turned away at once
 * (mcp_unavailable, retryable) while a restart is pending or the server is down.
 */
export class UpstreamRestartSupervisor {
  private status: UpstreamStatus = { state: 'idle', since: new Date(), restarts: 0 };
  private readonly backoff: RestartBackoff;
  private timer?: NodeJS.Timeout;
  private retryAt = 0;

  constructor(
    private readonly serverId: string,
    policy: RestartPolicy,
    private readonly restart: () => void,
    private readonly onState: (state: UpstreamState) => void,
    random?: () => number,
  ) {
    this.backoff = new RestartBackoff(policy, random);
  }

  get current(): Readonly<UpstreamStatus> {
    return this.status;
  }

  /** Why a call must not start a child now, or `undefined` when it may. */
  refusal(now = Date.now()): GatewayError | undefined {
    if (this.status.state === 'down') {
      const allowedAt = this.backoff.retryAllowedAt();
      if (now < allowedAt) {
        return upstreamRestarting(
          this.serverId,
          `down after repeated failures (last: ${this.status.last_error ?? 'unknown'})`,
          allowedAt - now,
        );
      }
      return undefined;
    }
    if (this.timer && now < this.retryAt) {
      return upstreamRestarting(
        this.serverId,
        `restarting after a failure (attempt ${this.backoff.attempts})`,
        this.retryAt - now,
      );
    }
    return undefined;
  }

  connected(): void {
    this.cancel();
    this.backoff.recordSuccess();
    this.enter('connected');
  }

  /** Our own close (idle reclaim): not a failure. */
  idle(): void {
    this.cancel();
    if (this.status.state === 'connected') this.enter('idle');
  }

  /** A crash or a failed start; `restart: false` records it without scheduling one (HTTP). */
  failed(error: string, options: { restart: boolean }, now = Date.now()): void {
    this.status.last_error = error;
    if (!options.restart) {
      this.enter('down');
      return;
    }
    const decision = this.backoff.recordFailure(now);
    this.cancel();
    if (decision.down) {
      this.enter('down');
      return;
    }
    this.enter('degraded');
    this.status.restarts++;
    this.retryAt = now + decision.delayMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.restart();
    }, decision.delayMs);
    this.timer.unref();
  }

  /** Drops a pending restart (the connection is closing for good). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private enter(state: UpstreamState): void {
    if (this.status.state !== state) {
      this.status = { ...this.status, state, since: new Date() };
    }
    this.onState(state);
  }
}
