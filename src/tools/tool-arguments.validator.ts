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
  const instance = plainToInstance(dto, args) as object;
  if (accepts?.(args)) return instance;
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
