import { GatewayError } from '../errors/gateway.error';

/**
 * Opaque pagination cursors: an offset, base64url-encoded so that clients do
 * not build them. A cursor that does not decode is -32602.
 */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: unknown): number {
  if (cursor === undefined || cursor === null) return 0;
  if (typeof cursor !== 'string') throw GatewayError.invalidParams('cursor must be a string');
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match)
    throw GatewayError.invalidParams(`Invalid cursor: ${cursor.slice(0, 64)}`, { field: 'cursor' });
  return Number(match[1]);
}

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

export function paginate<T>(all: readonly T[], cursor: unknown, pageSize: number): Page<T> {
  const offset = decodeCursor(cursor);
  if (offset > all.length)
    throw GatewayError.invalidParams('cursor is past the end of the list', { field: 'cursor' });
  const items = all.slice(offset, offset + pageSize);
  const next = offset + pageSize;
  return next < all.length ? { items, nextCursor: encodeCursor(next) } : { items };
}
