import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { isThenable } from '../../common/is-thenable';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerModuleOptions,
  ThrottlerOptions,
} from '@nestjs/throttler';
import { GatewayError } from '../../errors/gateway.error';
import { GovernanceDecisions } from '../governance-decisions';
import { HEADER_LIMIT, HEADER_REMAINING, HEADER_RESET } from '../governance.constants';
import { GovernedCall, governedCallOf } from '../governed-call';
import { GovernedCallState, WindowState } from '../governed-call.state';
import { GovernedTools } from '../governed-tools';
import { QuotaPolicy } from '../quota/quota.policy';
import { GovernanceRules } from '../rules/governance-rules';
import { StoreFailurePolicy } from '../store-failure.policy';
import { RateLimitStorage, ThrottlerStorageRecord } from './throttler-record';

/** One window of a throttler as it applies to this call, and the key it counts under. */
interface CountedWindow {
  name: string;
  scope: WindowState['scope'];
  key: string;
  limit: number;
  ttl: number;
  blockDuration: number;
}

/**
 * The last step of @Governed(): rate limits with @nestjs/throttler's
 * options and storage, under the named throttlers `minute` and `day`. The tracker is the client
 * id; limits come from the client's quota, and a tool may have its own,
 * stricter window (`tool_limits`, the handler's `rateLimits`). Counters live
 * in the ThrottlerStorage: in-process, or Redis for one limit across
 * replicas.
 *
 * The library's options and storage are used, not its guard: its guard
 * looks up route decorators (@Throttle, @SkipThrottle and kin) that MCP
 * handlers never carry (a tool declares its limits with `rateLimits`) and
 * builds an HTTP request/response pair to find a tracker, where the tracker
 * here is the client id (docs/performance.md). Windows are counted one after
 * another, so a full one stops the count there.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  /** The library's order: shortest window first (minute, then day). */
  private readonly throttlers: readonly ThrottlerOptions[];

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly storage: RateLimitStorage,
    private readonly rules: GovernanceRules,
    private readonly quotas: QuotaPolicy,
    private readonly tools: GovernedTools,
    private readonly state: GovernedCallState,
    private readonly decisions: GovernanceDecisions,
    private readonly failures: StoreFailurePolicy,
  ) {
    const throttlers = Array.isArray(options) ? options : options.throttlers;
    this.throttlers = [...throttlers].sort((a, b) => ttlOrder(a) - ttlOrder(b));
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const call = governedCallOf(context);
    if (!call || !this.rules.enabled) return true;
    let counting: void | Promise<void>;
    try {
      counting = this.count(call, this.windowsOf(call, context), 0);
    } catch (err) {
      return this.storeFailed(call, err);
    }
    if (!isThenable(counting)) return this.allowed(call);
    return counting.then(
      () => this.allowed(call),
      (err: unknown) => this.storeFailed(call, err),
    );
  }

  private allowed(call: GovernedCall): true {
    this.writeHeaders(call, this.state.tightestWindow(call.context));
    this.decisions.allow(call, this.state.remaining(call.context));
    return true;
  }

  /** A refusal is thrown on; a store that failed is let through or refused by the failure policy. */
  private storeFailed(call: GovernedCall, err: unknown): true {
    if (err instanceof GatewayError) throw err;
    this.failures.handle(call, 'rate_limit', err);
    return true;
  }

  /**
   * Every window that applies, in the order they are counted: for each
   * throttler (minute, then day), with its limits as they stand for this
   * client now, the tool's own window first, then the client's.
   */
  private windowsOf(call: GovernedCall, context: ExecutionContext): CountedWindow[] {
    const windows: CountedWindow[] = [];
    for (const throttler of this.throttlers) {
      if (throttler.skipIf?.(context)) continue;
      const name = throttler.name ?? 'default';
      const ttl = resolvedNumber(throttler, 'ttl', context);
      const blockDuration = resolvedNumber(throttler, 'blockDuration', context, ttl);
      const toolLimit = this.toolLimit(call, name);
      if (toolLimit !== undefined) {
        const key = `${call.clientId}|tool:${call.target}`;
        windows.push({ name, scope: 'tool', key, limit: toolLimit, ttl, blockDuration });
      }
      const limit = resolvedNumber(throttler, 'limit', context);
      windows.push({ name, scope: 'client', key: call.clientId, limit, ttl, blockDuration });
    }
    return windows;
  }

  /**
   * Counts one call in each window from `first` on, refusing at the first
   * that is full: at once while the store answers at once.
   */
  private count(call: GovernedCall, windows: CountedWindow[], first: number): void | Promise<void> {
    for (let index = first; index < windows.length; index++) {
      const window = windows[index];
      const { key, ttl, limit, blockDuration, name } = window;
      const record = this.storage.increment(key, ttl, limit, blockDuration, name);
      if (isThenable(record)) {
        return record.then((answered) => {
          this.counted(call, window, answered);
          return this.count(call, windows, index + 1);
        });
      }
      this.counted(call, window, record);
    }
  }

  private counted(
    call: GovernedCall,
    counted: CountedWindow,
    record: ThrottlerStorageRecord,
  ): void {
    const window: WindowState = {
      window: counted.name,
      scope: counted.scope,
      limit: counted.limit,
      remaining: Math.max(0, counted.limit - record.totalHits),
      resetSeconds: Math.max(1, record.isBlocked ? record.timeToBlockExpire : record.timeToExpire),
    };
    this.state.addWindow(call.context, window);
    if (record.isBlocked) throw this.rateLimited(call, window);
  }

  /** The tool's own limit in this window (`tool_limits`, the handler's `rateLimits`), if any. */
  private toolLimit(call: GovernedCall, name: string): number | undefined {
    if (call.kind !== 'tool') return undefined;
    const limits = this.quotas.toolLimits(
      call.clientId,
      call.target,
      this.tools.get(call.target)?.options.rateLimits,
    );
    return name === 'day' ? limits.day : limits.minute;
  }

  private rateLimited(call: GovernedCall, window: WindowState) {
    this.writeHeaders(call, window);
    const headers = call.context.responseHeaders;
    if (headers) headers['Retry-After'] = String(window.resetSeconds);
    const what = window.scope === 'tool' ? `calls of ${call.target}` : 'calls';
    return this.decisions.deny(
      call,
      'rate_limited',
      `Rate limit exceeded: ${window.limit} ${what} per ${window.window}; retry in ${window.resetSeconds} s`,
      {
        retryable: true,
        retryAfter: window.resetSeconds,
        remaining: this.state.remaining(call.context),
        data: { window: window.window, scope: window.scope, limit: window.limit },
      },
    );
  }

  private writeHeaders(call: GovernedCall, window: WindowState | undefined): void {
    const headers = call.context.responseHeaders;
    if (!window || !headers) return;
    headers[HEADER_LIMIT] = String(window.limit);
    headers[HEADER_REMAINING] = String(window.remaining);
    headers[HEADER_RESET] = String(window.resetSeconds);
  }
}

/** A window length that is not a number (the library allows functions) sorts last. */
function ttlOrder(throttler: ThrottlerOptions): number {
  return typeof throttler.ttl === 'number' ? throttler.ttl : Number.POSITIVE_INFINITY;
}

/**
 * A throttler setting: a number or a synchronous function of the call (the
 * gateway's throttlers read the client's quota). Anything else is a bug in
 * the throttler options, reported as such.
 */
function resolvedNumber(
  throttler: ThrottlerOptions,
  option: 'limit' | 'ttl' | 'blockDuration',
  context: ExecutionContext,
  fallback?: number,
): number {
  const setting = throttler[option];
  const value = typeof setting === 'function' ? setting(context) : (setting ?? fallback);
  if (typeof value !== 'number' || Number.isNaN(value)) {
    // Also a Promise: the library allows asynchronous settings, this guard does not need them.
    throw new Error(
      `Invalid "${option}" for the "${throttler.name ?? 'default'}" throttler: expected a number, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}
