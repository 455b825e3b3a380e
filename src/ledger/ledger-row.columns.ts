import { Insertable, Selectable } from 'kysely';
import { CostFlag } from './charged-cost';
import { LedgerOutcome, LedgerRow, StoredLedgerRow } from './ledger-row';
import { LedgerTable } from './ledger.schema';

/** Every column an append writes (all but the generated id), in table order. */
export const LEDGER_INSERTED_COLUMNS = [
  'time',
  'request_id',
  'trace_id',
  'client_id',
  'session_id',
  'transport',
  'method',
  'target',
  'arguments',
  'outcome',
  'error_code',
  'denial_reason',
  'duration_ms',
  'cost',
  'result_bytes',
  // Columns added since the first release come last, in the order they were added: a journal
  // line written before one existed is these values cut where it starts (JOURNAL_ROW_LENGTHS).
  'cost_flag',
  'error_message',
  'result_sha256',
  'upstream_server',
  'upstream_tool',
  'subject',
  'token_id',
] as const satisfies ReadonlyArray<Exclude<keyof LedgerTable, 'id'>>;

/** A LedgerRow as table columns. Durations and sizes are whole numbers in the table. */
export function toColumns(row: LedgerRow): Insertable<LedgerTable> {
  return {
    time: Math.trunc(row.time),
    request_id: row.requestId,
    trace_id: row.traceId,
    client_id: row.clientId,
    session_id: row.sessionId,
    transport: row.transport,
    method: row.method,
    target: row.target,
    arguments: row.arguments,
    outcome: row.outcome,
    error_code: row.errorCode,
    denial_reason: row.denialReason,
    duration_ms: Math.round(row.durationMs),
    cost: row.cost,
    result_bytes: Math.round(row.resultBytes),
    cost_flag: row.costFlag,
    error_message: row.errorMessage,
    result_sha256: row.resultSha256,
    upstream_server: row.upstreamServer,
    upstream_tool: row.upstreamTool,
    subject: row.subject,
    token_id: row.tokenId,
  };
}

/**
 * The same values as toColumns, as an array in LEDGER_INSERTED_COLUMNS
 * order: what a journal line holds, and what a prepared statement binds
 * without looking each value up by name (docs/performance.md).
 */
export function toColumnValues(row: LedgerRow): unknown[] {
  return [
    Math.trunc(row.time),
    row.requestId,
    row.traceId,
    row.clientId,
    row.sessionId,
    row.transport,
    row.method,
    row.target,
    row.arguments,
    row.outcome,
    row.errorCode,
    row.denialReason,
    Math.round(row.durationMs),
    row.cost,
    Math.round(row.resultBytes),
    row.costFlag,
    row.errorMessage,
    row.resultSha256,
    row.upstreamServer,
    row.upstreamTool,
    row.subject,
    row.tokenId,
  ];
}

export function fromColumns(columns: Selectable<LedgerTable>): StoredLedgerRow {
  return {
    id: Number(columns.id),
    time: Number(columns.time),
    requestId: columns.request_id,
    traceId: columns.trace_id,
    clientId: columns.client_id,
    sessionId: columns.session_id,
    transport: columns.transport,
    method: columns.method,
    target: columns.target,
    arguments: columns.arguments,
    outcome: columns.outcome as LedgerOutcome,
    errorCode: columns.error_code === null ? null : Number(columns.error_code),
    denialReason: columns.denial_reason,
    durationMs: Number(columns.duration_ms),
    cost: Number(columns.cost),
    resultBytes: Number(columns.result_bytes),
    costFlag: (columns.cost_flag ?? null) as CostFlag | null,
    errorMessage: columns.error_message ?? null,
    resultSha256: columns.result_sha256 ?? null,
    upstreamServer: columns.upstream_server ?? null,
    upstreamTool: columns.upstream_tool ?? null,
    subject: columns.subject ?? null,
    tokenId: columns.token_id ?? null,
  };
}
