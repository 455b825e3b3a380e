import { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { installLinearGetKeys } from './class-transformer-keys';
import { FieldError, invalidArguments } from './invalid-arguments.error';
import { ArgumentsAcceptance } from './schema-exact-dto.check';

export type { FieldError } from './invalid-arguments.error';

installLinearGetKeys();

/**
 * Checks tool arguments against the handler's DTO exactly as the published
 * inputSchema describes them: unknown properties refused, nothing coerced.
 * `accepts` (schema-exact-dto.check.ts), when the DTO has one, lets valid
 * arguments through without class-validator.
 */
export async function validateArguments(
  toolName: string,
  dto: Type,
  args: Record<string, unknown>,
  accepts?: ArgumentsAcceptance,
): Promise<object> {
  if (accepts?.(args)) return instanceOfAccepted(dto, args);
  const instance = plainToInstance(dto, args) as object;
  const errors = await validate(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  if (errors.length === 0) return instance;
  throw invalidArguments(toolName, flatten(errors));
}

/**
 * The DTO instance plainToInstance makes of arguments the schema-exact check
 * accepted, without its per-call metadata walk: such a DTO has no
 * class-transformer decorators, so plainToInstance copies each value as it
 * is onto `new dto()`, skipping `__proto__`, `constructor` and a key the
 * class serves with a method or a getter-only accessor. An object value
 * (an enum of objects) would be copied deeply: that case goes to
 * plainToInstance itself. Parity is checked in the DTO property test.
 */
export function instanceOfAccepted(dto: Type, args: Record<string, unknown>): object {
  const instance = new dto() as Record<string, unknown>;
  const prototype = dto.prototype as object;
  for (const key of Object.keys(args)) {
    const value = args[key];
    if (typeof value === 'object' && value !== null) return plainToInstance(dto, args) as object;
    if (key === '__proto__' || key === 'constructor') continue;
    const accessor = Object.getOwnPropertyDescriptor(prototype, key);
    if ((accessor && !accessor.set) || instance[key] instanceof Function) continue;
    instance[key] = value;
  }
  return instance;
}

/** Arguments of a handler that takes none: only an empty object passes. */
export function validateNoArguments(
  toolName: string,
  args: Record<string, unknown>,
): Promise<object> {
  const extra = Object.keys(args);
  if (extra.length === 0) return Promise.resolve({});
  const fields = extra.map((field) => ({ field, problems: ['property should not exist'] }));
  return Promise.reject(invalidArguments(toolName, fields, 'it takes no arguments; '));
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, problems: Object.values(error.constraints) }] : [];
    return [...own, ...flatten(error.children ?? [], field)];
  });
}
