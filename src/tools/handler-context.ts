import { JsonRpcId } from '../json-rpc/json-rpc.types';
import { LoggingLevel } from '../session/logging-level';

/** How a request to the calling client is bounded. */
export interface ClientRequestOptions {
  /** How long to wait for the client's answer (default 300 s); then it fails with -32004. */
  timeoutMs?: number;
  /**
   * On 2026-07-28, the key of this question in the input-required result (and of its answer
   * in inputResponses); by default a digest of the question, stable across re-runs.
   */
  inputKey?: string;
}

/** What a handler gets besides its arguments: who calls, how to report, how to stop. */
export interface HandlerContext {
  readonly toolName: string;
  readonly clientId: string;
  readonly requestId?: JsonRpcId;
  readonly sessionId: string;
  readonly traceId: string;
  /**
   * True on 2026-07-28: an ask ends this run with an input-required result and the handler
   * runs again with the answer, so work done before an ask is done again on every round.
   */
  readonly answersByRetry?: boolean;
  /** Fires on client cancellation, timeout or session end; long work must watch it. */
  readonly signal: AbortSignal;
  /** notifications/progress to the caller (only when it sent a progressToken); values must increase. */
  progress(done: number, total?: number, message?: string): void;
  /** notifications/message to the caller, filtered by its logging level. */
  log(level: LoggingLevel, data: unknown): void;
  /**
   * The real cost of this call, for the ledger and budgets (else the estimate applies): charged
   * at most the tool's maxCost (else the client's max_cost_per_call), what the budget reserved for
   * the call; anything but a finite number >= 0 is logged and ignored.
   */
  reportCost(amount: number): void;
  /**
   * sampling/createMessage on the client; fails when the client did not declare `sampling`.
   * Like elicit and listRoots: a request on a session; on 2026-07-28 the call ends with an
   * input-required result and the handler runs again with the answer (see answersByRetry).
   */
  sample(
    params: Record<string, unknown>,
    options?: ClientRequestOptions,
  ): Promise<Record<string, unknown>>;
  /** elicitation/create on the client; fails when the client did not declare `elicitation`. */
  elicit(
    params: Record<string, unknown>,
    options?: ClientRequestOptions,
  ): Promise<Record<string, unknown>>;
  /** roots/list on the client; fails when the client did not declare `roots`. */
  listRoots?(options?: ClientRequestOptions): Promise<Record<string, unknown>>;
  /**
   * For a tool with `startsTaskItself`: from here on the call runs as a task
   * if the client accepts tasks (the request is answered with the task and
   * the handler runs again in the task, with the answers it was given so
   * far); resolves at once otherwise, and inside the task.
   */
  runAsTask?(): Promise<void>;
  /**
   * SEP-1699 polling: ends the HTTP connection streaming this call's messages
   * while the call goes on; the client reconnects with Last-Event-ID and
   * receives the rest, the result included. False (nothing happens) where the
   * transport cannot resume: stdio, JSON-only requests, clients before 2025-11-25.
   */
  closeStream?(): boolean;
}
