import { RequestAbort } from '../common/request-abort';
import { VerifiedToken } from '../governance/identity/oauth/verified-token';
import { JsonRpcId, JsonRpcParams } from './json-rpc.types';
import { MessageSink } from '../session/message-sink';
import { LoggingLevel } from '../session/logging-level';
import { McpSession } from '../session/mcp-session';
import { InputRound } from './mrtr/input-round';

/** One rate-limit window as this call's counter increment left it. */
export interface RateWindowState {
  /** `minute` or `day`. */
  window: string;
  /** `client` (all calls of the client) or `tool` (this tool for this client). */
  scope: 'client' | 'tool';
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** Facts about a call that only its handler learns (what it targeted, what it cost). */
export interface CallRecord {
  /** The tool name or resource URI the call addressed. */
  target?: string;
  /** Set by governance's visibility check: the target exists and this client may see it. */
  visible?: boolean;
  /** Reported cost (budget units); absent means the estimate applies. */
  cost?: number;
  /** True once the handler started (set by the executor); only then is the call charged. */
  executed?: boolean;
  /** The handler's estimate, set by governance before the call runs. */
  estimatedCost?: number;
  /** The handler reported a cost that is not a finite number >= 0: it is charged its estimate. */
  costReportInvalid?: boolean;
  /** The most the call may cost (tool maxCost, else client max_cost_per_call), reserved by governance: a report above it is charged at it. */
  costCap?: number;
  /** Set by governance: the budget left once this call's claim is counted. */
  budgetRemaining?: number;
  /** Set by governance: the rate-limit windows this call counted in. */
  rateWindows?: RateWindowState[];
  /** The budget claim governance reserved for the call, settled when the call completes. */
  budgetClaim?: { id: string; month: string };
  /** Set by governance when it refuses the call (budget_exceeded, rate_limited, ...). */
  denialReason?: string;
  /** The `limits.argument_*` key the arguments passed: the ledger records that instead of them. */
  argumentsOverLimit?: string;
  /** Set by visibility when the tool is an upstream's: the server and its own tool name, for the ledger. */
  upstream?: { server: string; tool: string };
  /** The call ended with an input-required result (2026-07-28): an interim round, never charged. */
  inputRequired?: boolean;
  /** The call became this task: the task's ending writes its ledger row and settles its budget. */
  taskId?: string;
}

/**
 * What an MCP method handler (and every guard or interceptor around it) knows
 * about the call in flight. It is the `getContext()` of the 'rpc' ExecutionContext.
 */
export interface McpRequestContext {
  readonly method: string;
  /** Undefined for notifications. */
  readonly requestId?: JsonRpcId;
  readonly session: McpSession;
  readonly clientId: string;
  readonly transport: McpSession['transport'];
  /** For an OAuth caller: the validated access token's identity and scopes (never the token itself). */
  readonly token?: VerifiedToken;
  /** Fires on notifications/cancelled, timeout, or session end (made on first use). */
  readonly signal: AbortSignal;
  /** The request's cancellation itself: the gateway waits on it with race(), a deadline aborts it. */
  readonly abort: RequestAbort;
  /** `params._meta` as the client sent it (progressToken lives here). */
  readonly meta: Record<string, unknown>;
  /** Filled in while the call runs; the ledger and metrics read it afterwards. */
  readonly call: CallRecord;
  /** HTTP response headers to add (X-RateLimit-*); undefined on transports without headers (stdio). */
  readonly responseHeaders?: Record<string, string>;
  /** Correlates logs, ledger rows and traces for this request. */
  readonly traceId: string;
  /** The request's own outbound stream (a POST's response, stdout); a long-lived request holds it. */
  readonly stream?: MessageSink;
  /** A notification related to this request (it rides the request's own stream when there is one). */
  notify(method: string, params?: JsonRpcParams): boolean;
  /**
   * Set by the dispatcher on a 2026-07-28 tools/call, prompts/get or resources/read:
   * where the client's answers come from, since such a request cannot be asked anything.
   */
  inputs?: InputRound;
  /**
   * A server-to-client request related to this request (sampling, elicitation, roots).
   * On 2026-07-28 it is answered from `inputs` (inputKey names its key in inputRequests).
   */
  request(
    method: string,
    params?: JsonRpcParams,
    timeoutMs?: number,
    inputKey?: string,
  ): Promise<unknown>;
  /** `notifications/message` to this session, sent only at or above the level it set. */
  log(level: LoggingLevel, data: unknown, logger?: string): boolean;
  /**
   * Set on a tools/call that may continue as a task: creates the task and
   * rejects with TaskStarted (a handler's `ctx.runAsTask()`).
   */
  becomeTask?(): Promise<never>;
  /**
   * Ends the connection carrying this request's stream while the request goes
   * on; the client reconnects with Last-Event-ID and gets the rest (SEP-1699).
   * False when the transport cannot resume it (no such stream, stdio, older clients).
   */
  closeStream?(): boolean;
}
