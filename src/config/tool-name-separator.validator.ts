import { ValidateBy, ValidationArguments } from 'class-validator';

/*
 * The separator between an upstream's namespace and its tool names. It is kept
 * to characters that clients accept in tool names, so that joining never has
 * to rewrite anything; `.` only when `upstreams.allow_dots` is on.
 */
const SEPARATOR = /^[_-]{1,4}$/;
const SEPARATOR_WITH_DOTS = /^[_.-]{1,4}$/;

/** True when `value` may join namespace and tool under the given dots setting. */
export function isToolNameSeparator(value: unknown, allowDots: boolean): value is string {
  return typeof value === 'string' && (allowDots ? SEPARATOR_WITH_DOTS : SEPARATOR).test(value);
}

/** Validates `separator` against the `allow_dots` key of the same section. */
export function IsToolNameSeparator(): PropertyDecorator {
  return ValidateBy({
    name: 'isToolNameSeparator',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        isToolNameSeparator(value, (args?.object as { allow_dots?: unknown }).allow_dots === true),
      defaultMessage: () =>
        'must be 1 to 4 characters from "_" and "-" ("." as well when upstreams.allow_dots is true)',
    },
  });
}
