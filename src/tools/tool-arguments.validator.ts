import { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { GatewayError } from '../errors/gateway.error';
import { ArgumentsAcceptance } from './schema-exact-dto.check';

export interface FieldError {
  /** Dotted path of the failing field, e.g. `items.0.sku`. */
  field: string;
  problems: string[];
}

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
  const fields = flatten(errors);
  const summary = fields.map((f) => `${f.field}: ${f.problems.join(', ')}`).join('; ');
  throw GatewayError.invalidParams(`Invalid arguments for tool ${toolName}: ${summary}`, {
    tool: toolName,
    errors: fields,
  });
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
  return Promise.reject(
    GatewayError.invalidParams(
      `Invalid arguments for tool ${toolName}: it takes no arguments (${extra.join(', ')})`,
      {
        tool: toolName,
        errors: fields,
      },
    ),
  );
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, problems: Object.values(error.constraints) }] : [];
    return [...own, ...flatten(error.children ?? [], field)];
  });
}
