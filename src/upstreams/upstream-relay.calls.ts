import { ErrorCode as McpErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { HandlerContext } from '../tools/handler-context';
import { UPSTREAM_RELAY_LIMITS } from './upstream-relay.limits';

/** What the relay needs of the client whose tools/call is in flight. */
export type RelayCaller = Pick<
  HandlerContext,
  'sessionId' | 'sample' | 'elicit' | 'signal' | 'answersByRetry'
>;

/** One tools/call in flight on an upstream connection, with the requests relayed for it so far. */
export interface RelayCall {
  readonly caller?: RelayCaller;
  relayed: number;
}

/** Why a request from the upstream cannot be given to a caller. */
export type RelayAttribution =
  | { call: RelayCall; caller: RelayCaller }
  | { refused: 'no_call_in_flight' | 'ambiguous' | 'no_caller'; sessions: number };

/**
 * The tools/calls in flight on one upstream connection. A request the
 * upstream sends (sampling, elicitation) carries nothing that names the call
 * it belongs to (over stdio there is one stream; the SDK client does not say
 * which Streamable HTTP stream a message came on), so it is attributed only
 * when every call in flight belongs to one client session; otherwise it is
 * refused rather than risk showing one client another's request.
 */
export class UpstreamRelayCalls {
  private readonly calls = new Set<RelayCall>();

  /** Counts a call as in flight; the returned function ends it (abandoned: the gateway stopped waiting). */
  begin(caller: RelayCaller | undefined): (abandoned: boolean) => void {
    const call: RelayCall = { caller, relayed: 0 };
    this.calls.add(call);
    return (abandoned) => {
      if (!abandoned) {
        this.calls.delete(call);
        return;
      }
      // The upstream may still be working on it: keep it as a call without a caller for a while.
      const orphan: RelayCall = { relayed: 0 };
      this.calls.delete(call);
      this.calls.add(orphan);
      setTimeout(() => this.calls.delete(orphan), UPSTREAM_RELAY_LIMITS.abandonedGraceMs).unref();
    };
  }

  /** The call a request from the upstream belongs to: the oldest in flight when all are one session's. */
  attribute(): RelayAttribution {
    const sessions = new Set<string | undefined>(
      [...this.calls].map((call) => call.caller?.sessionId),
    );
    const [first] = this.calls;
    if (!first) return { refused: 'no_call_in_flight', sessions: 0 };
    if (sessions.size > 1) return { refused: 'ambiguous', sessions: sessions.size };
    if (!first.caller) return { refused: 'no_caller', sessions: 1 };
    return { call: first, caller: first.caller };
  }

  get size(): number {
    return this.calls.size;
  }
}

/** The gateway stopped waiting (cancelled, timed out) while the upstream may still be working. */
export function callAbandoned(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return true;
  return error instanceof McpError && error.code === (McpErrorCode.RequestTimeout as number);
}
