import { CostFlag } from './charged-cost';

/** How an audited call ended, as the ledger and metrics record it. */
export type LedgerOutcome =
  | 'success'
  /** The tool ran and returned `isError: true` (a result, not a protocol error). */
  | 'tool_error'
  | 'denied'
  | 'timeout'
  | 'cancelled'
  | 'error'
  /** An interim 2026-07-28 round: the call asked the client for input; the retry is its own row. */
  | 'input_required';

/** Every outcome, for validating filters (keep in step with LedgerOutcome). */
export const LEDGER_OUTCOMES: readonly LedgerOutcome[] = [
  'success',
  'tool_error',
  'denied',
  'timeout',
  'cancelled',
  'error',
  'input_required',
];

/** One ledger row: one tools/call, resources/read or prompts/get, whatever its outcome. */
export interface LedgerRow {
  /** Epoch milliseconds when the call started. */
  time: number;
  /** JSON-RPC id as text (`s:` / `n:` prefix keeps string and number ids apart). */
  requestId: string;
  traceId: string;
  clientId: string;
  sessionId: string;
  transport: string;
  method: string;
  /** Tool name, resource URI or prompt name. */
  target: string;
  /** Redacted arguments as JSON text, or null when argument recording is off. */
  arguments: string | null;
  outcome: LedgerOutcome;
  /** JSON-RPC error code, null on success. */
  errorCode: number | null;
  /** Governance denial reason (budget_exceeded, rate_limited, ...), null otherwise. */
  denialReason: string | null;
  durationMs: number;
  /** Budget units charged; 0 for denied and cancelled calls. */
  cost: number;
  /** Bytes of the JSON result (0 for errors). */
  resultBytes: number;
  /** Set when `cost` is not what the tool reported (capped, or an invalid report); null otherwise. */
  costFlag: CostFlag | null;
  /**
   * What the client was told went wrong (the JSON-RPC error message, or the
   * text of a tool error), redacted like the arguments and cut to
   * LEDGER_ERROR_MESSAGE_MAX characters; null on success.
   */
  errorMessage: string | null;
  /** SHA-256 (hex) of the same JSON bytes `resultBytes` counts; null when there is no result. */
  resultSha256: string | null;
  /** The upstream server (`server_id`) a federated tool call went to; null for local tools. */
  upstreamServer: string | null;
  /** The upstream's own name of the tool (the exposed name is `target`); null for local tools. */
  upstreamTool: string | null;
  /** The OAuth access token's subject (`sub`); null for API-key, header and stdio callers. */
  subject: string | null;
  /** The OAuth access token's id (`jti`), null when it has none; the token itself is never stored. */
  tokenId: string | null;
}

/** A stored row with its database id (monotonic, usable as a cursor). */
export interface StoredLedgerRow extends LedgerRow {
  id: number;
}
