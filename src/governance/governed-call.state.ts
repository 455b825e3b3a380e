import { Injectable } from '@nestjs/common';
import { McpRequestContext, RateWindowState } from '../json-rpc/mcp-request-context';
import { RemainingQuota } from './denial-reason';

export type WindowState = RateWindowState;

/**
 * What the guards of one call learnt about its quota, kept on the call's
 * record: the budget guard runs before the rate-limit guard, and both report
 * the whole picture.
 */
@Injectable()
export class GovernedCallState {
  setBudgetRemaining(context: McpRequestContext, remaining: number): void {
    context.call.budgetRemaining = remaining;
  }

  addWindow(context: McpRequestContext, state: WindowState): void {
    (context.call.rateWindows ??= []).push(state);
  }

  /** The window with the fewest calls left (the shorter one on a tie), or undefined before any. */
  tightestWindow(context: McpRequestContext): WindowState | undefined {
    return (context.call.rateWindows ?? []).reduce<WindowState | undefined>(
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
    const result: RemainingQuota = {};
    for (const w of context.call.rateWindows ?? []) {
      const field = w.window === 'day' ? 'calls_day' : 'calls_minute';
      result[field] = Math.min(result[field] ?? Infinity, w.remaining);
    }
    const budget = context.call.budgetRemaining;
    if (budget !== undefined) result.budget = budget;
    return result;
  }
}
