import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerModuleOptions,
  ThrottlerOptions,
  ThrottlerRequest,
  ThrottlerStorage,
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

/** What getRequestResponse hands the throttler for an MCP call (there is no HTTP request). */
interface RpcThrottlerRequest {
  clientId: string;
  target: string;
  headers: Record<string, string>;
}

interface Counter {
  scope: WindowState['scope'];
  key: string;
  limit: number;
}

/**
 * Last guard: @nestjs/throttler's guard over MCP calls, with the named
 * throttlers `minute` and `day`. The tracker is the client id; limits come
 * from the client's quota, and a tool may have its own, stricter window
 * (`tool_limits`, the handler's `rateLimits`). Counters live in the
 * ThrottlerStorage: in-process, or Redis for one limit across replicas.
 *
 * The library's own canActivate is not used: per call and throttler it reads
 * six route/class decorators (@Throttle, @SkipThrottle and kin) through
 * reflect-metadata, which cost more than the count itself, and MCP handlers
 * never carry them (a tool declares its limits with `rateLimits`).
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly rules: GovernanceRules,
    private readonly quotas: QuotaPolicy,
    private readonly tools: GovernedTools,
    private readonly state: GovernedCallState,
    private readonly decisions: GovernanceDecisions,
    private readonly failures: StoreFailurePolicy,
  ) {
    super(options, storage, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const call = governedCallOf(context);
    if (!call || !this.rules.enabled) return true;
    try {
      await this.countCall(context);
    } catch (err) {
      if (err instanceof GatewayError) throw err;
      this.failures.handle(call, 'rate_limit', err);
      return true;
    }
    this.writeHeaders(call, this.state.tightestWindow(call.context));
    this.decisions.allow(call, this.state.remaining(call.context));
    return true;
  }

  /** Each throttler in turn (minute, then day), with its limits as they stand for this client now. */
  private async countCall(context: ExecutionContext): Promise<void> {
    for (const throttler of this.throttlers) {
      if (throttler.skipIf?.(context)) continue;
      const ttl = resolvedNumber(throttler, 'ttl', context);
      await this.handleRequest({
        context,
        throttler,
        limit: resolvedNumber(throttler, 'limit', context),
        ttl,
        blockDuration: resolvedNumber(throttler, 'blockDuration', context, ttl),
        getTracker: throttler.getTracker ?? ((req) => this.getTracker(req)),
        generateKey:
          throttler.generateKey ?? ((keyContext, tracker) => this.generateKey(keyContext, tracker)),
      });
    }
  }

  /** Counts one call in each window that applies (the tool's first), refusing at the first that is full. */
  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, throttler, ttl, blockDuration } = request;
    const call = governedCallOf(context);
    if (!call) return true;
    const name = throttler.name ?? 'default';
    const { req } = this.getRequestResponse(context);
    const tracker = await request.getTracker(req, context);
    const clientKey = request.generateKey(context, tracker, name);
    for (const counter of this.countersFor(call, name, clientKey, request.limit)) {
      const record = await this.storageService.increment(
        counter.key,
        ttl,
        counter.limit,
        blockDuration,
        name,
      );
      const window: WindowState = {
        window: name,
        scope: counter.scope,
        limit: counter.limit,
        remaining: Math.max(0, counter.limit - record.totalHits),
        resetSeconds: Math.max(
          1,
          record.isBlocked ? record.timeToBlockExpire : record.timeToExpire,
        ),
      };
      this.state.addWindow(call.context, window);
      if (record.isBlocked) throw this.rateLimited(call, window);
    }
    return true;
  }

  protected override getRequestResponse(context: ExecutionContext): {
    req: Record<string, unknown>;
    res: Record<string, unknown>;
  } {
    const call = governedCallOf(context);
    const headers = call?.context.responseHeaders ?? {};
    const req: RpcThrottlerRequest = {
      clientId: call?.clientId ?? '',
      target: call?.target ?? '',
      headers: {},
    };
    const res = {
      setHeader: (name: string, value: string | number) => (headers[name] = String(value)),
    };
    return { req: req as unknown as Record<string, unknown>, res };
  }

  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    return Promise.resolve((req as unknown as RpcThrottlerRequest).clientId);
  }

  /** Readable keys (the storage adds the throttler name and the prefix): `<client>`. */
  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return tracker;
  }

  private countersFor(call: GovernedCall, name: string, clientKey: string, clientLimit: number) {
    const counters: Counter[] = [];
    if (call.kind === 'tool') {
      const limits = this.quotas.toolLimits(
        call.clientId,
        call.target,
        this.tools.get(call.target)?.options.rateLimits,
      );
      const limit = name === 'day' ? limits.day : limits.minute;
      if (limit !== undefined) {
        counters.push({ scope: 'tool', key: `${clientKey}|tool:${call.target}`, limit });
      }
    }
    counters.push({ scope: 'client', key: clientKey, limit: clientLimit });
    return counters;
  }

  private rateLimited(call: GovernedCall, window: WindowState) {
    this.writeHeaders(call, window);
    call.context.responseHeaders['Retry-After'] = String(window.resetSeconds);
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
    if (!window) return;
    const headers = call.context.responseHeaders;
    headers[HEADER_LIMIT] = String(window.limit);
    headers[HEADER_REMAINING] = String(window.remaining);
    headers[HEADER_RESET] = String(window.resetSeconds);
  }
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
