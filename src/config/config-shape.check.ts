import type { SchemaProblem } from './config.schema';

/**
 * Names a mapping key may not take: Object.prototype's members and
 * `prototype`. The schema's transformer throws on `constructor` and silently
 * drops the others (`__proto__`, `toString`...), so rules under them would
 * never apply.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  'prototype',
]);

/** Far deeper than any config key path; deeper input is refused before it is transformed. */
export const MAX_CONFIG_DEPTH = 32;

/**
 * Problems that must stop a candidate config (file or admin API) before the
 * schema transforms it: a reserved key name, and nesting deep enough to
 * exhaust the stack. One iterative pass.
 */
export function configShapeProblems(plain: unknown): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const pending: Array<{ value: unknown; path: string[] }> = [{ value: plain, path: [] }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= MAX_CONFIG_DEPTH) {
      problems.push({
        path,
        message: `is nested deeper than ${MAX_CONFIG_DEPTH} levels`,
        unknownKey: false,
      });
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      if (RESERVED_KEYS.has(key)) {
        problems.push({
          path: [...path, key],
          message:
            'is a reserved name (Object.prototype member names and "prototype" cannot be keys)',
          unknownKey: false,
        });
      } else pending.push({ value: child, path: [...path, key] });
    }
  }
  return problems;
}
