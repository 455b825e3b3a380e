import fc from 'fast-check';
import type { ClassShape, PrimitiveKind, PropertyKind, PropertyShape } from './dto-shapes';

/**
 * Input objects for a DTO shape: VALID ones (what the shape's decorators accept) and MUTANTS
 * (a valid one with one change somewhere, valid or not), used to compare the schema's verdict
 * with class-validator's.
 */

export type PlainObject = Record<string, unknown>;

const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');

function primitiveValue(kind: PrimitiveKind): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'string':
      return fc.string({ maxLength: 8 });
    case 'number':
      return fc.double({ min: -1e6, max: 1e6, noNaN: true });
    case 'integer':
      return fc.integer({ min: -1000, max: 1000 });
    case 'boolean':
      return fc.boolean();
  }
}

function kindValue(type: PropertyKind): fc.Arbitrary<unknown> {
  switch (type.kind) {
    case 'string': {
      const minLength = type.minLength ?? 0;
      const maxLength = type.maxLength ?? minLength + 8;
      return type.lettersOnly
        ? fc.string({ unit: letters, minLength, maxLength })
        : fc.string({ minLength, maxLength });
    }
    case 'number':
      return fc.double({
        min: type.min ?? -1e6,
        max: type.max ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'integer':
      return fc.integer({ min: type.min ?? -1000, max: type.max ?? 1000 });
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...type.values);
    case 'array': {
      const minLength = type.minItems ?? 0;
      const maxLength = type.maxItems ?? minLength + 3;
      return fc.array(primitiveValue(type.item), { minLength, maxLength });
    }
    case 'nested':
      return type.each
        ? fc.array(validValue(type.shape), { maxLength: 3 })
        : validValue(type.shape);
    case 'union':
      return fc.oneof(
        ...type.primitives.map((p) => primitiveValue(p)),
        ...(type.dto ? [validValue(type.dto)] : []),
      );
  }
}

function propertyValue(property: PropertyShape): fc.Arbitrary<unknown> {
  const value = kindValue(property.type);
  // @IsOptional and @Nullable both let null through.
  return property.optional || property.nullable ? fc.oneof(value, fc.constant(null)) : value;
}

/** Objects the shape's decorators accept (optional properties sometimes left out). */
export function validValue(shape: ClassShape): fc.Arbitrary<PlainObject> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const property of shape.properties) model[property.name] = propertyValue(property);
  const requiredKeys = shape.properties.filter((p) => !p.optional).map((p) => p.name);
  return fc.record(model, { requiredKeys });
}

/** Values of every JSON type, some of them edge cases for the usual constraints. */
const strayValue: fc.Arbitrary<unknown> = fc.constantFrom(
  '',
  'zzz',
  '2020',
  0,
  -1,
  1.5,
  1e6,
  true,
  false,
  null,
  [],
  ['a'],
  [1],
  [null],
  [{}],
  {},
  { zz: 1 },
);

/**
 * Values just outside what the property's decorators accept (or, for some, just inside): one
 * below/above each bound, a fraction for an integer, a non-member of an enum, a wrongly typed
 * array item, an array where an object is expected... Random stray values rarely hit these.
 */
function nearMisses(type: PropertyKind): unknown[] {
  const candidates: unknown[] = [];
  switch (type.kind) {
    case 'string':
      if (type.minLength !== undefined && type.minLength > 0) {
        candidates.push('a'.repeat(type.minLength - 1));
      }
      if (type.maxLength !== undefined) candidates.push('a'.repeat(type.maxLength + 1));
      candidates.push('A'.repeat(type.minLength ?? 1), 7);
      break;
    case 'number':
    case 'integer':
      candidates.push((type.min ?? 0) + 0.5, '1');
      if (type.min !== undefined) candidates.push(type.min - 1, type.min - 0.5, type.min);
      if (type.max !== undefined) candidates.push(type.max + 1, type.max + 0.5, type.max);
      break;
    case 'boolean':
      candidates.push('true', 1, 0);
      break;
    case 'enum':
      // Not 'Member0' for numeric @IsEnum: class-validator accepts member names (a documented
      // deviation, asserted in the unit spec).
      candidates.push('zzzzzzz', 999, String(type.values[0]), type.values[0] === 0 ? false : 0);
      break;
    case 'array': {
      const wrongItem = type.item === 'string' ? 1 : 'x';
      candidates.push([wrongItem], [null], 'x');
      if (type.minItems !== undefined && type.minItems > 0) candidates.push([]);
      break;
    }
    case 'nested':
      candidates.push(type.each ? [[]] : [], type.each ? ['x'] : 'x', type.each ? [null] : {});
      break;
    case 'union':
      candidates.push(type.primitives.includes('boolean') ? 'x' : true, [], {});
      if (!type.primitives.includes('number')) candidates.push(1);
      if (!type.primitives.includes('string')) candidates.push('x');
      break;
  }
  return candidates;
}

/** One change to a valid object: a property dropped, replaced, added, or a change deeper down. */
function mutate(value: PlainObject, shape: ClassShape): fc.Arbitrary<PlainObject> {
  const names = shape.properties.map((p) => p.name);
  const strategies: fc.Arbitrary<PlainObject>[] = [
    fc.constantFrom(...names).map((name) => {
      const copy = { ...value };
      delete copy[name];
      return copy;
    }),
    fc
      .constantFrom(...shape.properties)
      .chain((property) =>
        fc
          .constantFrom(...nearMisses(property.type))
          .map((miss) => ({ ...value, [property.name]: miss })),
      ),
    fc
      .tuple(fc.constantFrom(...names), strayValue)
      .map(([name, stray]) => ({ ...value, [name]: stray })),
    fc
      .tuple(fc.stringMatching(/^[a-z]{1,5}$/), strayValue)
      .filter(([name]) => !names.includes(name))
      .map(([name, stray]) => ({ ...value, [`extra${name}`]: stray })),
  ];
  for (const property of shape.properties) {
    const current = value[property.name];
    const nested = nestedShapeOf(property.type);
    if (!nested) continue;
    if (property.type.kind === 'nested' && property.type.each && Array.isArray(current)) {
      current.forEach((item, index) => {
        if (!isPlainObject(item)) return;
        strategies.push(
          mutate(item, nested).map((changed) => {
            const items: unknown[] = [...(current as unknown[])];
            items[index] = changed;
            return { ...value, [property.name]: items };
          }),
        );
      });
    } else if (isPlainObject(current)) {
      strategies.push(
        mutate(current, nested).map((changed) => ({ ...value, [property.name]: changed })),
      );
    }
  }
  return fc.oneof(...strategies);
}

function nestedShapeOf(type: PropertyKind): ClassShape | undefined {
  if (type.kind === 'nested') return type.shape;
  if (type.kind === 'union') return type.dto;
  return undefined;
}

function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A valid object of the shape with one random change (which may or may not break it). */
export function mutantValue(shape: ClassShape): fc.Arbitrary<PlainObject> {
  return validValue(shape).chain((value) => mutate(value, shape));
}

/**
 * Every single change of `value` worth checking, enumerated (random sampling rarely hits the one
 * value that separates two readings of a constraint): for each property, its near misses, null
 * and its removal, the same recursively inside nested objects, and one unknown property.
 */
export function systematicMutants(value: PlainObject, shape: ClassShape): PlainObject[] {
  const mutants: PlainObject[] = [{ ...value, extraProperty: 'x' }];
  for (const property of shape.properties) {
    const without = { ...value };
    delete without[property.name];
    mutants.push(without);
    for (const miss of [null, ...nearMisses(property.type)]) {
      mutants.push({ ...value, [property.name]: miss });
    }
    const current = value[property.name];
    const nested = nestedShapeOf(property.type);
    if (!nested) continue;
    if (Array.isArray(current)) {
      current.forEach((item, index) => {
        if (!isPlainObject(item)) return;
        for (const changed of systematicMutants(item, nested)) {
          const items: unknown[] = [...(current as unknown[])];
          items[index] = changed;
          mutants.push({ ...value, [property.name]: items });
        }
      });
    } else if (isPlainObject(current)) {
      for (const changed of systematicMutants(current, nested)) {
        mutants.push({ ...value, [property.name]: changed });
      }
    }
  }
  return mutants;
}
