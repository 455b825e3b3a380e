import { LEDGER_OUTCOMES, LedgerOutcome } from '../ledger/ledger-row';
import { LedgerQuery } from '../ledger/ledger-store';
import { invalidAdminQuery as invalid } from './admin-query.error';
import { LEDGER_PAGE_DEFAULT, LEDGER_PAGE_MAX } from './ledger-admin.query';
import { decodeLedgerCursor } from './ledger-cursor';

const KNOWN = ['client', 'target', 'outcome', 'from', 'to', 'limit', 'cursor'];
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
// A date-time must say its offset: without one, JavaScript would read it as server-local time.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** Validates GET /admin/ledger's query string; a bad filter is a 400 that names it. */
export function parseLedgerAdminQuery(raw: Record<string, unknown>): LedgerQuery {
  const unknown = Object.keys(raw).filter((key) => !KNOWN.includes(key));
  if (unknown.length > 0) {
    throw invalid(unknown[0], `unknown filter; the filters are ${KNOWN.join(', ')}`);
  }
  const text = (field: string): string | undefined => {
    const value = raw[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw invalid(field, 'must be given once');
    if (value === '') throw invalid(field, 'must not be empty');
    return value;
  };

  const query: LedgerQuery = { limit: parseLimit(text('limit')) };
  const client = text('client');
  if (client !== undefined) query.clientId = client;
  const target = text('target');
  if (target !== undefined) query.target = target;
  const outcome = text('outcome');
  if (outcome !== undefined) query.outcome = parseOutcome(outcome);
  const from = text('from');
  if (from !== undefined) query.from = parseTime('from', from);
  const to = text('to');
  if (to !== undefined) query.to = parseTime('to', to);
  if (query.from !== undefined && query.to !== undefined && query.from >= query.to) {
    throw invalid('from', 'must be earlier than to');
  }
  const cursor = text('cursor');
  if (cursor !== undefined) {
    const beforeId = decodeLedgerCursor(cursor);
    if (beforeId === undefined) throw invalid('cursor', 'is not a cursor this API returned');
    query.beforeId = beforeId;
  }
  return query;
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return LEDGER_PAGE_DEFAULT;
  const limit = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= LEDGER_PAGE_MAX)) {
    throw invalid('limit', `must be an integer from 1 to ${LEDGER_PAGE_MAX}, got "${value}"`);
  }
  return limit;
}

function parseOutcome(value: string): LedgerOutcome {
  const outcome = LEDGER_OUTCOMES.find((known) => known === value);
  if (!outcome) {
    throw invalid('outcome', `must be one of ${LEDGER_OUTCOMES.join(', ')}, got "${value}"`);
  }
  return outcome;
}

function parseTime(field: string, value: string): number {
  const epoch = /^\d{1,15}$/.test(value) ? Number(value) : undefined;
  const parsed =
    epoch ?? (ISO_DATE.test(value) || ISO_DATE_TIME.test(value) ? Date.parse(value) : NaN);
  if (Number.isNaN(parsed)) {
    throw invalid(
      field,
      `expected an ISO 8601 date (2026-03-01), a date-time with an offset ` +
        `(2026-03-01T12:00:00Z) or epoch milliseconds, got "${value}"`,
    );
  }
  return parsed;
}
