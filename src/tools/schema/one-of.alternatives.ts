import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { SchemaNode } from './schema-node';

/** A DTO class usable as a union alternative (constructible without arguments by class-transformer). */
export type DtoAlternative = new () => object;

/** One alternative of a @OneOf union: a JSON primitive or a DTO class. */
export type OneOfAlternative =
  StringConstructor | NumberConstructor | BooleanConstructor | DtoAlternative;

type PrimitiveAlternative = StringConstructor | NumberConstructor | BooleanConstructor;

const PRIMITIVES: ReadonlyMap<unknown, { type: string; accepts: (value: unknown) => boolean }> =
  new Map<PrimitiveAlternative, { type: string; accepts: (value: unknown) => boolean }>([
    [String, { type: 'string', accepts: (v) => typeof v === 'string' }],
    // Same rule as @IsNumber() with default options: NaN and ±Infinity are not numbers.
    [Number, { type: 'number', accepts: (v) => typeof v === 'number' && Number.isFinite(v) }],
    [Boolean, { type: 'boolean', accepts: (v) => typeof v === 'boolean' }],
  ]);

export function isDtoAlternative(alternative: OneOfAlternative): alternative is DtoAlternative {
  return !PRIMITIVES.has(alternative);
}

/**
 * Whether `value` is accepted by one alternative. A DTO alternative is checked the way the gateway
 * checks a whole input: plainToInstance (so its own @Type/@ValidateNested work), then
 * validateSync with unknown properties forbidden. Arrays and null are never DTO values
 * (plainToInstance would map an array element-wise, and the schema says "object").
 */
export function matchesAlternative(alternative: OneOfAlternative, value: unknown): boolean {
  const primitive = PRIMITIVES.get(alternative);
  if (primitive) return primitive.accepts(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const instance = plainToInstance(alternative as DtoAlternative, value);
  return validateSync(instance, { whitelist: true, forbidNonWhitelisted: true }).length === 0;
}

/** The JSON Schema of one alternative; DTOs become a reference the generator inlines. */
export function alternativeSchema(
  alternative: OneOfAlternative,
  refPointerPrefix: string,
): SchemaNode {
  const primitive = PRIMITIVES.get(alternative);
  if (primitive) return { type: primitive.type };
  return { $ref: refPointerPrefix + alternative.name };
}

/** Name used in validation messages: string, number, boolean or the DTO class name. */
export function alternativeName(alternative: OneOfAlternative): string {
  return PRIMITIVES.get(alternative)?.type ?? alternative.name;
}
