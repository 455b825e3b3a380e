import { LEDGER_INSERTED_COLUMNS } from '../../src/ledger/ledger-row.columns';

/**
 * The synthetic ledger: row i (0-based) of N, the same for SQLite (built in
 * JavaScript) and PostgreSQL (built by SQL over generate_series, see
 * POSTGRES_ROW_SELECT; keep both in step). Times run from the start of the
 * current UTC month to now, so every row counts in this month's statistics.
 */
export const CLIENTS = 100;
const TOOLS = 40;
const DENIAL_REASONS = ['rate_limited', 'budget_exceeded', 'cost_per_call_exceeded'];

/** The ledger's columns as the gateway writes them (the synthetic rows follow this order). */
export const LEDGER_COLUMNS = LEDGER_INSERTED_COLUMNS;

export const clientName = (i: number): string => `client-${String(i % CLIENTS).padStart(3, '0')}`;

export interface TimeSpan {
  from: number;
  to: number;
}

export function currentMonthSpan(now = Date.now()): TimeSpan {
  const date = new Date(now);
  return { from: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1), to: now - 60_000 };
}

/** Row i as column values, in LEDGER_COLUMNS order. */
export function ledgerRow(i: number, rows: number, span: TimeSpan): Array<string | number | null> {
  const bucket = i % 100;
  const outcome = bucket < 2 ? 'denied' : bucket === 2 ? 'tool_error' : 'success';
  const isRead = i % 10 === 9;
  return [
    span.from + Math.floor(((span.to - span.from) * i) / rows),
    `n:${i}`,
    `trace-${i}`,
    clientName(i),
    `session-${i % 1000}`,
    i % 2 === 0 ? 'streamable-http' : 'stdio',
    isRead ? 'resources/read' : 'tools/call',
    isRead ? `skill://cat-${i % 50}/skill-${i % 500}` : `tool_${(i * 7) % TOOLS}`,
    `{"id":"${i}"}`,
    outcome,
    outcome === 'denied' ? -32003 : null,
    outcome === 'denied' ? DENIAL_REASONS[i % DENIAL_REASONS.length] : null,
    i % 250,
    outcome === 'success' ? (i % 10) / 100 : 0,
    outcome === 'denied' ? 0 : 100 + (i % 900),
    null,
    outcome === 'success' ? null : `error ${i}`,
    outcome === 'denied' ? null : resultDigest(i),
    null,
    null,
    null,
    null,
  ];
}

/** A 64-hex-digit stand-in for a result's SHA-256, distinct per row (as real digests are). */
function resultDigest(i: number): string {
  return i.toString(16).padStart(64, '0');
}

/** The same rows as a SELECT over `generate_series(0, $3 - 1) as g(i)`; $1 = from, $2 = to, $3 = rows. */
export const POSTGRES_ROW_SELECT = `
  select
    $1::bigint + floor((($2::bigint - $1::bigint) * i)::numeric / $3::bigint)::bigint,
    'n:' || i,
    'trace-' || i,
    'client-' || lpad((i % ${CLIENTS})::text, 3, '0'),
    'session-' || (i % 1000),
    case when i % 2 = 0 then 'streamable-http' else 'stdio' end,
    case when i % 10 = 9 then 'resources/read' else 'tools/call' end,
    case when i % 10 = 9 then 'skill://cat-' || (i % 50) || '/skill-' || (i % 500)
         else 'tool_' || ((i * 7) % ${TOOLS}) end,
    '{"id":"' || i || '"}',
    case when i % 100 < 2 then 'denied' when i % 100 = 2 then 'tool_error' else 'success' end,
    case when i % 100 < 2 then -32003 end,
    case when i % 100 < 2 then (array[${DENIAL_REASONS.map((r) => `'${r}'`).join(', ')}])[i % ${DENIAL_REASONS.length} + 1] end,
    i % 250,
    case when i % 100 > 2 then (i % 10) / 100.0 else 0 end,
    case when i % 100 < 2 then 0 else 100 + (i % 900) end,
    null,
    case when i % 100 > 2 then null else 'error ' || i end,
    case when i % 100 < 2 then null else lpad(to_hex(i), 64, '0') end,
    null,
    null,
    null,
    null
  from generate_series(0, $3::bigint - 1) as g(i)`;
