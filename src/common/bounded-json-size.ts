/** What a JSON walk may meet before it stops; keys and depth are checked only when given. */
export interface JsonWalkLimits {
  maxBytes: number;
  /** Keys across all nested objects. */
  maxKeys?: number;
  /** Nesting of objects and arrays, the value itself as level 1 (scalars add no level). */
  maxDepth?: number;
}

export type JsonWalkLimit = 'bytes' | 'keys' | 'depth';

export interface JsonMeasure {
  /** The UTF-8 size of the JSON text: exact when no limit was passed, otherwise above the limit or partial. */
  bytes: number;
  /** The first limit the walk passed, if any. */
  passed?: JsonWalkLimit;
}

/**
 * Measures `JSON.stringify(value)` in UTF-8 bytes, keys and depth without
 * building the text, and stops at the first limit passed, so a huge value
 * is not walked past the limit. An explicit stack, so a deep value cannot
 * overflow the call stack. Values are what JSON.parse produces; anything else
 * counts as stringify would write it (undefined members left out, in arrays
 * `null`), toJSON aside.
 */
export function measureJson(value: unknown, limits: JsonWalkLimits): JsonMeasure {
  const { maxBytes, maxKeys = Infinity, maxDepth = Infinity } = limits;
  if (!isContainer(value)) {
    const bytes = scalarSize(value, maxBytes);
    return bytes > maxBytes ? { bytes, passed: 'bytes' } : { bytes };
  }
  let bytes = 0;
  let keys = 0;
  const pending: Array<[object, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (depth > maxDepth) return { bytes, passed: 'depth' };
    // Brackets, then each member with its separator, stopping once past maxBytes.
    bytes += 2;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length && bytes <= maxBytes; i++) {
        if (i > 0) bytes++;
        const element: unknown = node[i];
        if (isContainer(element)) pending.push([element, depth + 1]);
        else bytes += omitted(element) ? 4 : scalarSize(element, maxBytes - bytes);
      }
    } else {
      const names = Object.keys(node);
      keys += names.length;
      if (keys > maxKeys) return { bytes, passed: 'keys' };
      let first = true;
      for (let i = 0; i < names.length && bytes <= maxBytes; i++) {
        const member: unknown = (node as Record<string, unknown>)[names[i]];
        if (omitted(member)) continue;
        bytes += (first ? 0 : 1) + stringSize(names[i], maxBytes - bytes) + 1;
        first = false;
        if (isContainer(member)) pending.push([member, depth + 1]);
        else bytes += scalarSize(member, maxBytes - bytes);
      }
    }
    if (bytes > maxBytes) return { bytes, passed: 'bytes' };
  }
  return { bytes };
}

/**
 * The UTF-8 byte length of `JSON.stringify(value)`: exact when it is at most
 * `max`, otherwise some number above `max` (the walk stops there).
 */
export function boundedJsonSize(value: unknown, max: number): number {
  return measureJson(value, { maxBytes: max }).bytes;
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function scalarSize(value: unknown, budget: number): number {
  if (typeof value === 'string') return stringSize(value, budget);
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
