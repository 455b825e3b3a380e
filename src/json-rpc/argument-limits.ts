import { LimitsConfig } from '../config/gateway-config';

export type ArgumentLimitName = 'argument_max_keys' | 'argument_max_depth' | 'argument_max_bytes';

export type ArgumentLimits = Pick<LimitsConfig, ArgumentLimitName>;

/** The first limit an argument value passed, and its configured maximum. */
export interface ArgumentLimitBreach {
  limit: ArgumentLimitName;
  max: number;
}

/** Characters JSON.stringify escapes (or may, for lone surrogates): such strings are measured exactly. */
// eslint-disable-next-line no-control-regex -- control characters are what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * Measures a JSON value (as JSON.parse made it) against the argument limits:
 * keys across all nested objects, nesting depth of objects and arrays (the
 * value itself is level 1), and the byte size of its JSON text. One pass with
 * an explicit stack, so a deep value cannot overflow the call stack, and it
 * stops at the first limit passed, so a huge value costs no more than the limit.
 */
export function findArgumentLimitBreach(
  value: unknown,
  limits: ArgumentLimits,
): ArgumentLimitBreach | undefined {
  const maxBytes = limits.argument_max_bytes;
  if (typeof value !== 'object' || value === null) {
    return scalarBytes(value) > maxBytes ? breach('argument_max_bytes', maxBytes) : undefined;
  }
  let keys = 0;
  let bytes = 0;
  const pending: Array<[object, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (depth > limits.argument_max_depth) {
      return breach('argument_max_depth', limits.argument_max_depth);
    }
    const children: unknown[] = Array.isArray(node) ? node : [];
    if (!Array.isArray(node)) {
      const names = Object.keys(node);
      keys += names.length;
      if (keys > limits.argument_max_keys) {
        return breach('argument_max_keys', limits.argument_max_keys);
      }
      for (const name of names) {
        bytes += stringBytes(name) + 1;
        children.push((node as Record<string, unknown>)[name]);
      }
    }
    // Brackets and the commas between members.
    bytes += 2 + Math.max(children.length - 1, 0);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
      else bytes += scalarBytes(child);
    }
    if (bytes > maxBytes) return breach('argument_max_bytes', maxBytes);
  }
  return undefined;
}

function breach(limit: ArgumentLimitName, max: number): ArgumentLimitBreach {
  return { limit, max };
}

function stringBytes(text: string): number {
  return NEEDS_ESCAPE.test(text)
    ? Buffer.byteLength(JSON.stringify(text))
    : Buffer.byteLength(text) + 2;
}

function scalarBytes(value: unknown): number {
  if (typeof value === 'string') return stringBytes(value);
  if (typeof value === 'number') return JSON.stringify(value).length;
  if (typeof value === 'boolean') return value ? 4 : 5;
  return value === null ? 4 : 0;
}
