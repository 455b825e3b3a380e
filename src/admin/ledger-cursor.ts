/** Opaque page cursors for GET /admin/ledger: base64url of the last row id returned. */
export function encodeLedgerCursor(id: number): string {
  return Buffer.from(String(id), 'utf8').toString('base64url');
}

/** The id a cursor carries, or undefined when it is not one this API produced. */
export function decodeLedgerCursor(cursor: string): number | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[1-9]\d{0,15}$/.test(text) || encodeLedgerCursor(Number(text)) !== cursor)
    return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}
