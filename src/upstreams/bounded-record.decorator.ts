import { ValidateBy, ValidationArguments } from 'class-validator';

export interface BoundedRecordRule {
  maxEntries: number;
  /** Returns why a key is not acceptable, or undefined. */
  key: (key: string) => string | undefined;
  /** Returns why a value is not acceptable, or undefined; it must never quote the value. */
  value: (value: unknown) => string | undefined;
}

/**
 * A mapping keyed by user-chosen names (env variables, header names, tool
 * globs) with a cap on its size. class-validator has no rule for a plain
 * object's arbitrary keys; the message names the first offending key, never a
 * value, because values here are often secrets.
 */
export function BoundedRecord(rule: BoundedRecordRule): PropertyDecorator {
  return ValidateBy({
    name: 'boundedRecord',
    validator: {
      validate: (value: unknown) => recordProblem(value, rule) === undefined,
      defaultMessage: (args?: ValidationArguments) =>
        `${args?.property ?? 'value'} ${recordProblem(args?.value, rule) ?? 'is invalid'}`,
    },
  });
}

function recordProblem(value: unknown, rule: BoundedRecordRule): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'must be a mapping';
  }
  const entries = Object.entries(value);
  if (entries.length > rule.maxEntries) {
    return `has ${entries.length} entries; at most ${rule.maxEntries} are allowed`;
  }
  for (const [key, entry] of entries) {
    const keyProblem = rule.key(key);
    if (keyProblem) return `key ${quoted(key)} ${keyProblem}`;
    const valueProblem = rule.value(entry);
    if (valueProblem) return `value of ${quoted(key)} ${valueProblem}`;
  }
  return undefined;
}

/** A key as it was written, cut short: a key may be as long as the file. */
function quoted(key: string): string {
  return JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
}
