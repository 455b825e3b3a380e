/**
 * The UTF-8 byte length of `JSON.stringify(value)`, counted by walking the
 * value without building the text. The walk stops as soon as the count passes
 * `max`, so its cost is bounded by the limit, not by the value: the exact
 * length when it is at most `max`, otherwise some number above `max`.
 * Values are what JSON.parse produces; anything else counts as stringify would
 * write it (undefined members left out, in arrays `null`), toJSON aside.
 */
export function boundedJsonSize(value: unknown, max: number): number {
  let total = 0;
  // Explicit stack: a deeply nested value must not overflow the call stack.
  const pending: unknown[] = [value];
  while (pending.length > 0 && total <= max) {
    const next = pending.pop();
    if (typeof next === 'string') {
      total += stringSize(next, max - total);
    } else if (Array.isArray(next)) {
      total += 2;
      for (let i = 0; i < next.length && total <= max; i++) {
        if (i > 0) total++;
        const element: unknown = next[i];
        if (omitted(element)) total += 4;
        else pending.push(element);
      }
    } else if (typeof next === 'object' && next !== null) {
      total += 2;
      let first = true;
      for (const key in next) {
        if (total > max) break;
        if (!Object.hasOwn(next, key)) continue;
        const member: unknown = (next as Record<string, unknown>)[key];
        if (omitted(member)) continue;
        total += (first ? 0 : 1) + stringSize(key, max - total) + 1;
        first = false;
        pending.push(member);
      }
    } else {
      total += scalarSize(next);
    }
  }
  return total;
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function scalarSize(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  if (value === null) return 4;
  // A top-level undefined (no capabilities at all) takes no room.
  return 0;
}

/** The quoted, escaped UTF-8 size of a string; stops counting once it exceeds `budget`. */
function stringSize(text: string, budget: number): number {
  // Every character takes at least one byte: a string this long is over budget unread.
  if (text.length + 2 > budget) return text.length + 2;
  let size = 2;
  for (let i = 0; i < text.length && size <= budget; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20)
      size += code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6;
    else if (code === 0x22 || code === 0x5c) size += 2;
    else if (code < 0x80) size += 1;
    else if (code < 0x800) size += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        size += 4;
        i++;
      } else size += 6;
    } else if (code >= 0xdc00 && code <= 0xdfff) size += 6;
    else size += 3;
  }
  return size;
}
