import 'reflect-metadata';
import type { Type as ClassType } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import fc from 'fast-check';
import { Description, Nullable, OneOf } from '../schema.decorators';
import type { OneOfAlternative } from '../one-of.alternatives';

/**
 * Random DTO SHAPES for the property test, and the real classes built from them by applying the
 * real decorators programmatically (exactly what TypeScript's decorator emit does).
 */

export type PrimitiveKind = 'string' | 'number' | 'integer' | 'boolean';

export type PropertyKind =
  | { kind: 'string'; minLength?: number; maxLength?: number; lettersOnly: boolean }
  | { kind: 'number' | 'integer'; min?: number; max?: number }
  | { kind: 'boolean' }
  | { kind: 'enum'; values: (string | number)[]; via: 'IsIn' | 'IsEnum' }
  | { kind: 'array'; item: PrimitiveKind; minItems?: number; maxItems?: number }
  | { kind: 'nested'; shape: ClassShape; each: boolean }
  | { kind: 'union'; primitives: ('string' | 'number' | 'boolean')[]; dto?: ClassShape };

export interface PropertyShape {
  name: string;
  type: PropertyKind;
  optional: boolean;
  nullable: boolean;
  description?: string;
  /** Apply the decorators in reverse order (the schema must not depend on decorator order). */
  reversed: boolean;
}

export interface ClassShape {
  properties: PropertyShape[];
  description?: string;
}

/** Nested DTOs (and DTO union alternatives) go at most this deep below the root. */
export const MAX_DEPTH = 3;

const propertyName = fc
  .stringMatching(/^[a-z][a-zA-Z0-9]{0,7}$/)
  .filter((name) => !(name in Object.prototype));
const text = fc.string({ minLength: 1, maxLength: 20 });
const smallInt = fc.integer({ min: -100, max: 100 });

/** An optional lower bound and an optional upper bound, the upper never below the lower. */
function bounds(low: fc.Arbitrary<number>, span: fc.Arbitrary<number>) {
  return fc
    .record({ min: fc.option(low, { nil: undefined }), span, hasMax: fc.boolean() })
    .map(({ min, span: extra, hasMax }) => ({
      min,
      max: hasMax ? (min ?? 0) + extra : undefined,
    }));
}

const stringKind: fc.Arbitrary<PropertyKind> = fc
  .record({
    range: bounds(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 6 })),
    lettersOnly: fc.boolean(),
  })
  .map(({ range, lettersOnly }) => ({
    kind: 'string',
    minLength: range.min,
    maxLength: range.max,
    lettersOnly,
  }));

const numericKind = (kind: 'number' | 'integer'): fc.Arbitrary<PropertyKind> =>
  bounds(smallInt, fc.integer({ min: 0, max: 50 })).map((range) => ({ kind, ...range }));

const enumKind: fc.Arbitrary<PropertyKind> = fc.record({
  kind: fc.constant('enum' as const),
  values: fc.oneof(
    fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 4 }),
    fc.uniqueArray(fc.integer({ min: -5, max: 20 }), { minLength: 1, maxLength: 4 }),
  ),
  via: fc.constantFrom('IsIn' as const, 'IsEnum' as const),
});

const arrayKind: fc.Arbitrary<PropertyKind> = fc
  .record({
    item: fc.constantFrom<PrimitiveKind>('string', 'number', 'integer', 'boolean'),
    range: bounds(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 3 })),
  })
  .map(({ item, range }) => ({ kind: 'array', item, minItems: range.min, maxItems: range.max }));

const primitiveAlternatives = fc.subarray(['string', 'number', 'boolean'] as const);

function propertyKind(depth: number): fc.Arbitrary<PropertyKind> {
  const leaves: fc.WeightedArbitrary<PropertyKind>[] = [
    { arbitrary: stringKind, weight: 3 },
    { arbitrary: numericKind('number'), weight: 2 },
    { arbitrary: numericKind('integer'), weight: 2 },
    { arbitrary: fc.constant({ kind: 'boolean' }), weight: 1 },
    { arbitrary: enumKind, weight: 2 },
    { arbitrary: arrayKind, weight: 2 },
    {
      arbitrary: primitiveAlternatives
        .filter((primitives) => primitives.length >= 2)
        .map((primitives) => ({ kind: 'union', primitives: [...primitives] })),
      weight: 1,
    },
  ];
  if (depth >= MAX_DEPTH) return fc.oneof(...leaves);
  const child = classShape(depth + 1);
  return fc.oneof(
    ...leaves,
    {
      arbitrary: fc.record({
        kind: fc.constant('nested' as const),
        shape: child,
        each: fc.boolean(),
      }),
      weight: 2,
    },
    {
      arbitrary: fc
        .record({ primitives: primitiveAlternatives, dto: child })
        .map(({ primitives, dto }): PropertyKind => ({
          kind: 'union',
          primitives: [...primitives],
          dto,
        })),
      weight: 1,
    },
  );
}

/** A random DTO shape; `depth` is how deep it sits below the root DTO. */
export function classShape(depth = 0): fc.Arbitrary<ClassShape> {
  const property = fc.record(
    {
      name: propertyName,
      type: propertyKind(depth),
      optional: fc.boolean(),
      nullable: fc.boolean(),
      description: text,
      reversed: fc.boolean(),
    },
    { requiredKeys: ['name', 'type', 'optional', 'nullable', 'reversed'] },
  );
  return fc.record(
    {
      // At least one property: class-validator rejects instances of classes without metadata.
      properties: fc.uniqueArray(property, {
        minLength: 1,
        maxLength: depth === 0 ? 6 : 3,
        selector: (p) => p.name,
      }),
      description: text,
    },
    { requiredKeys: ['properties'] },
  );
}

// ---------------------------------------------------------------------------------------------
// Building real classes.

let classCounter = 0;

/** A TypeScript enum object with those values (numeric members get their reverse mapping). */
function enumObject(values: (string | number)[]): Record<string, string | number> {
  const result: Record<string, string | number> = {};
  values.forEach((value, i) => {
    const key = `Member${i}`;
    result[key] = value;
    if (typeof value === 'number') result[String(value)] = key;
  });
  return result;
}

function primitiveValidator(kind: PrimitiveKind, options?: ValidationOptions): PropertyDecorator {
  switch (kind) {
    case 'string':
      return IsString(options);
    case 'number':
      return IsNumber({}, options);
    case 'integer':
      return IsInt(options);
    case 'boolean':
      return IsBoolean(options);
  }
}

const PRIMITIVE_ALTERNATIVES: Record<'string' | 'number' | 'boolean', OneOfAlternative> = {
  string: String,
  number: Number,
  boolean: Boolean,
};

function decoratorsFor(type: PropertyKind): PropertyDecorator[] {
  switch (type.kind) {
    case 'string':
      return [
        IsString(),
        ...(type.minLength !== undefined ? [MinLength(type.minLength)] : []),
        ...(type.maxLength !== undefined ? [MaxLength(type.maxLength)] : []),
        ...(type.lettersOnly ? [Matches(/^[a-z]*$/)] : []),
      ];
    case 'number':
    case 'integer':
      return [
        primitiveValidator(type.kind),
        ...(type.min !== undefined ? [Min(type.min)] : []),
        ...(type.max !== undefined ? [Max(type.max)] : []),
      ];
    case 'boolean':
      return [IsBoolean()];
    case 'enum':
      return [type.via === 'IsIn' ? IsIn(type.values) : IsEnum(enumObject(type.values))];
    case 'array':
      return [
        IsArray(),
        primitiveValidator(type.item, { each: true }),
        ...(type.minItems !== undefined ? [ArrayMinSize(type.minItems)] : []),
        ...(type.maxItems !== undefined ? [ArrayMaxSize(type.maxItems)] : []),
      ];
    case 'nested': {
      const nested = buildDtoClass(type.shape);
      // @IsObject makes class-validator as strict as the schema (see index.ts).
      return type.each
        ? [IsArray(), ValidateNested({ each: true }), Type(() => nested), IsObject({ each: true })]
        : [ValidateNested(), Type(() => nested), IsObject()];
    }
    case 'union': {
      const alternatives = type.primitives.map((p) => PRIMITIVE_ALTERNATIVES[p]);
      if (type.dto) alternatives.push(buildDtoClass(type.dto) as OneOfAlternative);
      const [first, ...rest] = alternatives;
      return first ? [OneOf(first, ...rest)] : [];
    }
  }
}

/** A real DTO class for `shape`, with a unique name (schemas are keyed by class name). */
export function buildDtoClass(shape: ClassShape): ClassType {
  const cls = class {};
  Object.defineProperty(cls, 'name', { value: `GeneratedDto${++classCounter}` });
  for (const property of shape.properties) {
    const decorators = [
      ...decoratorsFor(property.type),
      ...(property.optional ? [IsOptional()] : []),
      ...(property.nullable ? [Nullable()] : []),
      ...(property.description !== undefined ? [Description(property.description)] : []),
    ];
    if (property.reversed) decorators.reverse();
    for (const decorate of decorators) decorate(cls.prototype, property.name);
  }
  if (shape.description !== undefined) Description(shape.description)(cls);
  return cls;
}
