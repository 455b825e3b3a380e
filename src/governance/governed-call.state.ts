import { InstanceSlot } from '../common/object-slot';
import { Injectable } from '@nestjs/common';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { RemainingQuota } from './denial-reason';

/** One rate-limit window as the last counter increment left it. */
export interface WindowState {
  /** `minute` or `day`. */
  window: string;
  /** `client` (all calls of the client) or `tool` (this tool for this client). */
  scope: 'client' | 'tool';
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

interface CallQuota {
  budgetRemaining?: number;
  windows: WindowState[];
}

/**
 * What the guards of one call learnt about its quota, shared between them
 * (the budget guard runs before the rate-limit guard, and both report the
 * whole picture). Keyed by the request context, so it dies with the call.
 */
@Injectable()
export class GovernedCallState {
  private readonly calls = new InstanceSlot<CallQuota>('callQuota');

  setBudgetRemaining(context: McpRequestContext, remaining: number): void {
    this.of(context).budgetRemaining = remaining;
  }

  addWindow(context: McpRequestContext, state: WindowState): void {
    this.of(context).windows.push(state);
  }

  /** The window with the fewest calls left (the shorter one on a tie), or undefined before any. */
  tightestWindow(context: McpRequestContext): WindowState | undefined {
    const windows = this.calls.get(context)?.windows ?? [];
    return windows.reduce<WindowState | undefined>(
      (best, w) =>
        best === undefined ||
        w.remaining < best.remaining ||
        (w.remaining === best.remaining && w.resetSeconds < best.resetSeconds)
          ? w
          : best,
      undefined,
    );
  }

  remaining(context: McpRequestContext): RemainingQuota {
    const quota = this.calls.get(context);
    const result: RemainingQuota = {};
    for (const w of quota?.windows ?? []) {
      const field = w.window === 'day' ? 'calls_day' : 'calls_minute';
      result[field] = Math.min(result[field] ?? Infinity, w.remaining);
    }
    if (quota?.budgetRemaining !== undefined) result.budget = quota.budgetRemaining;
    return result;
  }

  private of(context: McpRequestContext): CallQuota {
    return this.calls.get(context) ?? this.calls.set(context, { windows: [] });
  }
}
