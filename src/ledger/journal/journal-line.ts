import { LedgerRow } from '../ledger-row';
import { LEDGER_INSERTED_COLUMNS, toColumnValues } from '../ledger-row.columns';

/**
 * One append is one journal line: a row's column values (in
 * LEDGER_INSERTED_COLUMNS order), or, for a group commit of several rows,
 * the array of their values. Its only newline is its last byte, so a write
 * cut short never leaves a complete line a mover could take: an append
 * reaches `ledger` whole or not at all.
 */
export function formatJournalLine(rows: readonly LedgerRow[]): string {
  return rows.length === 1
    ? `${JSON.stringify(toColumnValues(rows[0]))}\n`
    : `${JSON.stringify(rows.map(toColumnValues))}\n`;
}

/** The rows of a line (each its column values), or undefined for a line that is not one. */
export function parseJournalLine(line: string): unknown[][] | undefined {
  let values: unknown;
  try {
    values = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!Array.isArray(values)) return undefined;
  if (isRow(values)) return [withEveryColumn(values)];
  return values.length > 0 && values.every(isRow) ? values.map(withEveryColumn) : undefined;
}

/**
 * Row lengths a line may have: a row written by an earlier release (an
 * upgrade with rows still in the journal) stops where the first column
 * added after it starts; the columns it lacks are null.
 */
const JOURNAL_ROW_LENGTHS: ReadonlySet<number> = new Set([
  LEDGER_INSERTED_COLUMNS.indexOf('cost_flag'),
  LEDGER_INSERTED_COLUMNS.indexOf('error_message'),
  LEDGER_INSERTED_COLUMNS.indexOf('upstream_server'),
  LEDGER_INSERTED_COLUMNS.indexOf('subject'),
  LEDGER_INSERTED_COLUMNS.length,
]);

function isRow(values: unknown): values is unknown[] {
  return (
    Array.isArray(values) &&
    JOURNAL_ROW_LENGTHS.has(values.length) &&
    !values.some((value) => Array.isArray(value))
  );
}

function withEveryColumn(values: unknown[]): unknown[] {
  const missing = LEDGER_INSERTED_COLUMNS.length - values.length;
  return missing === 0 ? values : [...values, ...new Array<null>(missing).fill(null)];
}
