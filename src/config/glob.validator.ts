import { ValidateBy, ValidationArguments } from 'class-validator';
import { globProblem } from '../common/glob-pattern';

/** The globs a key holds: one, a list, or the keys of a mapping (`tool_limits`). */
function globsOf(value: unknown): unknown[] {
  if (value instanceof Map) return [...value.keys()];
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null) return Object.keys(value);
  return [value];
}

/** The first glob refused, and why; other shapes are left to the key's other validators. */
function firstGlobProblem(value: unknown): string | undefined {
  for (const glob of globsOf(value)) {
    if (typeof glob !== 'string') continue;
    const problem = globProblem(glob);
    if (problem !== undefined) return `glob ${JSON.stringify(glob.slice(0, 80))} ${problem}`;
  }
  return undefined;
}

/**
 * Rules are written by operators but matched against names and URIs any
 * client sends: a glob is bounded in size and wildcards, and is refused when
 * it uses syntax the matcher does not read.
 */
export function IsGlob(): PropertyDecorator {
  return ValidateBy({
    name: 'isGlob',
    validator: {
      validate: (value: unknown) => firstGlobProblem(value) === undefined,
      defaultMessage: (args?: ValidationArguments) => firstGlobProblem(args?.value) ?? 'is invalid',
    },
  });
}
