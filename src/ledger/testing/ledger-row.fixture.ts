import { LedgerRow } from '../ledger-row';

/** The default row time: 2026-03-14T12:30:15Z. */
export const T0 = Date.UTC(2026, 2, 14, 12, 30, 15);

let nextRequest = 1;

/** A complete row; tests override what they look at. */
export function ledgerRow(overrides: Partial<LedgerRow> = {}): LedgerRow {
  const n = nextRequest++;
  return {
    time: T0,
    requestId: `n:${n}`,
    traceId: `trace-${n}`,
    clientId: 'client-a',
    sessionId: 'session-1',
    transport: 'streamable-http',
    method: 'tools/call',
    target: 'orders_get',
    arguments: '{"id":1}',
    outcome: 'success',
    errorCode: null,
    denialReason: null,
    durationMs: 12,
    cost: 1,
    resultBytes: 42,
    costFlag: null,
    errorMessage: null,
    resultSha256: null,
    upstreamServer: null,
    upstreamTool: null,
    subject: null,
    tokenId: null,
    ...overrides,
  };
}
