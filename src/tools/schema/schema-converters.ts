import 'reflect-metadata';
import { IS_DATE_STRING, IS_ENUM, IS_IN, IS_URL, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import {
  defaultConverters,
  ISchemaConverters,
  SchemaConverter,
} from 'class-validator-jsonschema/build/defaultConverters';
import type { IOptions } from 'class-validator-jsonschema/build/options';
import { ClassConstructor, isSchemaNode, SchemaNode } from './schema-node';
import { markType } from './type-markers';

/**
 * Set instead of a `$ref` when a nested DTO's class cannot be resolved (its @Type thunk throws or
 * returns nothing, e.g. a circular import): generating THAT DTO's schema fails with this message,
 * while every other DTO (the library converts all registered classes at once) is unaffected.
 */
export const UNRESOLVED_MARKER = 'x-owlclaw-unresolved';

const PRIMITIVE_TYPES: ReadonlyMap<unknown, string> = new Map<unknown, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

/** `enum` plus the common `type` when all values share one (informative: enum alone is exact). */
function enumSchema(values: unknown): SchemaNode {
  if (!Array.isArray(values)) return {};
  const unique = [...new Set<unknown>(values)];
  // JSON Schema requires a non-empty enum; an empty list accepts nothing, like @IsIn([]).
  if (unique.length === 0) return { not: {} };
  const types = new Set(unique.map((value) => typeof value));
  const [only] = types;
  const type =
    types.size === 1 && ['string', 'number', 'boolean'].includes(only) ? only : undefined;
  return type ? { type, enum: unique } : { enum: unique };
}

/**
 * The values of a TypeScript enum object. Numeric members also have a reverse entry
 * (`Level[1] === 'Low'`); those names are not values and are left out. NOTE: class-validator's
 * isEnum accepts them anyway (it checks Object.keys(enum).map(k => enum[k])); the schema does not
 * advertise them, since a handler typed `Level` must not receive the string 'Low'.
 */
function enumValues(entity: unknown): unknown[] {
  if (typeof entity !== 'object' || entity === null) return [];
  const record = entity as Record<string, unknown>;
  const isReverseEntry = (key: string): boolean => {
    const name = record[key];
    return (
      typeof name === 'string' && typeof record[name] === 'number' && String(record[name]) === key
    );
  };
  return Object.keys(record)
    .filter((key) => !isReverseEntry(key))
    .map((key) => record[key]);
}

function designType(meta: ValidationMetadata): unknown {
  if (typeof meta.target !== 'function') return undefined;
  return Reflect.getMetadata('design:type', meta.target.prototype as object, meta.propertyName);
}

/** @ValidateNested: a reference to the nested DTO (by class name, as the library keys schemas). */
function nestedConverter(meta: ValidationMetadata, options: IOptions): SchemaNode {
  const where = `${typeof meta.target === 'function' ? meta.target.name : meta.target}.${meta.propertyName}`;
  let type: unknown;
  try {
    const typeMetadata =
      typeof meta.target === 'function'
        ? options.classTransformerMetadataStorage?.findTypeMetadata(meta.target, meta.propertyName)
        : undefined;
    type = typeMetadata ? typeMetadata.typeFunction() : designType(meta);
  } catch (error) {
    return { [UNRESOLVED_MARKER]: `${where}: its @Type() failed: ${String(error)}` };
  }
  const primitive = PRIMITIVE_TYPES.get(type);
  if (primitive) return { type: primitive };
  if (typeof type !== 'function' || type === Object || type === Array) {
    return {
      [UNRESOLVED_MARKER]: `${where}: @ValidateNested() needs @Type(() => NestedDto) to know the class`,
    };
  }
  return { $ref: options.refPointerPrefix + type.name };
}

/**
 * Validators without a converter of their own (custom ones, and class-validator's rarer ones) are
 * opaque: keep only what the TypeScript design type says about primitives. The library would emit
 * a `$ref` to `Object`/`Array` for union- or array-typed properties, which resolves to nothing.
 */
function customConverter(meta: ValidationMetadata): SchemaNode {
  const primitive = PRIMITIVE_TYPES.get(designType(meta));
  return primitive ? { type: primitive } : {};
}

const overrides: Record<string, SchemaConverter> = {
  // The library publishes every enum as `type: 'string'` (wrong for numeric enums) with the
  // reverse-mapping names of numeric enums among the values.
  [IS_ENUM]: (meta) => enumSchema(enumValues(meta.constraints[0])),
  // The library drops mixed-type lists entirely (then anything validates in the schema).
  [IS_IN]: (meta) => enumSchema(meta.constraints[0]),
  // The library's pattern is unanchored and requires fractional seconds; ISO 8601 date-times are
  // what @IsDateString() is for, and 'date-time' is the standard format for them.
  [IS_DATE_STRING]: () => ({ type: 'string', format: 'date-time' }),
  // 'url' is not a JSON Schema 2020-12 format (validators that don't know it may reject the
  // schema); 'uri' is. Both are hints: validator.js's isURL has rules of its own.
  [IS_URL]: () => ({ type: 'string', format: 'uri' }),
  [ValidationTypes.NESTED_VALIDATION]: (meta, options) => nestedConverter(meta, options),
  [ValidationTypes.CUSTOM_VALIDATION]: (meta) => customConverter(meta),
};

/**
 * The converters given to the library: its defaults with the overrides above, each wrapped to
 * (1) record which class every converted metadata belongs to (the library gives no other way to
 * learn which classes it keyed under which name) and (2) move `type` into the type marker.
 */
export function createConverters(onClass: (cls: ClassConstructor) => void): ISchemaConverters {
  const all: ISchemaConverters = { ...defaultConverters, ...overrides };
  return Object.fromEntries(
    Object.entries(all).map(([validatorType, converter]) => {
      const wrapped: SchemaConverter = (meta, options) => {
        if (typeof meta.target === 'function') onClass(meta.target as ClassConstructor);
        const output: unknown =
          typeof converter === 'function' ? converter(meta, options) : structuredClone(converter);
        return isSchemaNode(output) ? markType(output) : {};
      };
      return [validatorType, wrapped];
    }),
  );
}
