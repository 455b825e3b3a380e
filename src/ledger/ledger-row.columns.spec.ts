import { LedgerRow } from './ledger-row';
import { LEDGER_INSERTED_COLUMNS, toColumnValues, toColumns } from './ledger-row.columns';

const row: LedgerRow = {
  time: 1_795_000_000_123.6,
  requestId: 'stdio:7',
  traceId: '0af7651916cd43dd8448eb211c80319c',
  clientId: 'alpha',
  sessionId: 's-1',
  transport: 'stdio',
  method: 'tools/call',
  target: 'inventory_search',
  arguments: '{"query":"tent"}',
  outcome: 'denied',
  errorCode: -32001,
  denialReason: 'rate_limited',
  durationMs: 1.5,
  cost: 0.25,
  resultBytes: 120.4,
  costFlag: 'capped',
  errorMessage: 'Rate limit exceeded: 60 calls per minute; retry in 12 s',
  resultSha256: null,
  upstreamServer: null,
  upstreamTool: null,
  subject: null,
  tokenId: null,
};

describe('ledger row columns', () => {
  it('lists positional values in LEDGER_INSERTED_COLUMNS order, equal to the named columns', () => {
    const named = toColumns(row) as Record<string, unknown>;
    expect(toColumnValues(row)).toEqual(LEDGER_INSERTED_COLUMNS.map((column) => named[column]));
  });

  it('stores whole numbers where the table has integers', () => {
    expect(toColumns(row)).toMatchObject({
      time: 1_795_000_000_123,
      duration_ms: 2,
      result_bytes: 120,
    });
  });
});
