import { registerDecorator, ValidateIf, ValidationArguments } from 'class-validator';
import {
  alternativeName,
  alternativeSchema,
  isDtoAlternative,
  matchesAlternative,
  OneOfAlternative,
} from './one-of.alternatives';
import { addSchemaPatch } from './schema-patches';
import { SchemaNode, splitAnnotations } from './schema-node';

/** Usable on a class and on a property, like class-validator-jsonschema's @JSONSchema. */
export type ClassOrPropertyDecorator = (target: object, propertyKey?: string | symbol) => void;

function propertyName(propertyKey: string | symbol, decorator: string): string {
  if (typeof propertyKey === 'symbol') {
    throw new TypeError(`@${decorator}() needs a string property name, not a symbol`);
  }
  return propertyKey;
}

/**
 * Documents a DTO (class-level) or one of its properties: sets `description` in the schema.
 * No effect on validation. The property-level text wins over the nested DTO's class-level one.
 */
export function Description(text: string): ClassOrPropertyDecorator {
  return (target, propertyKey) => {
    const key = propertyKey === undefined ? undefined : propertyName(propertyKey, 'Description');
    addSchemaPatch(target, key, 'description', (schema) => ({ ...schema, description: text }));
  };
}

/** The conditions registered by @Nullable, so the generator can tell them from other @ValidateIf. */
const nullableConditions = new WeakSet<object>();

/** True for the @ValidateIf condition that @Nullable registers. */
export function isNullableCondition(condition: unknown): boolean {
  return typeof condition === 'function' && nullableConditions.has(condition);
}

/**
 * The property may be null. Validation: a @ValidateIf that is false for null, so null skips every
 * other validator of the property (undefined does not: the property stays required unless
 * @IsOptional). Schema: the generator admits null — `type: ['string', 'null']` for a plainly typed
 * schema, `anyOf: [<schema>, { type: 'null' }]` for a $ref, an enum or a union (see allowNull).
 * The schema side is rendered by the generator rather than a @JSONSchema patch because @IsOptional
 * admits null too (class-validator skips it for null and undefined) and both need the same rule.
 */
export function Nullable(): PropertyDecorator {
  return (target, propertyKey) => {
    propertyName(propertyKey, 'Nullable');
    const condition = (_object: object, value: unknown): boolean => value !== null;
    nullableConditions.add(condition);
    ValidateIf(condition)(target, propertyKey);
  };
}

/**
 * A union: the value must match at least one alternative — String, Number, Boolean or a DTO class
 * (a plain object valid for that DTO, unknown properties forbidden). Validation is a custom
 * class-validator constraint; the schema lists the alternatives (DTOs inlined by the generator).
 *
 * `oneOf` or `anyOf`? Validation accepts a value matching ANY alternative, which is `anyOf`.
 * `oneOf` (exactly one) says the same only when no value can match two alternatives. That holds
 * by JSON type when there is at most one DTO alternative: string, number, boolean and object are
 * disjoint (duplicates are dropped). Two DTOs can both accept the same object (e.g. all-optional
 * properties), and then `oneOf` would reject what validation accepts — so with two or more DTO
 * alternatives the schema uses `anyOf`. Make DTO alternatives distinguishable anyway (e.g. a
 * required discriminator property with @IsIn(['circle']) / @IsIn(['square'])): validation
 * takes the first match, and clients pick the branch from that property.
 *
 * Values of a DTO alternative reach the handler as validated plain objects, not class instances.
 * Not for arrays (no `each`): put the union on the items' DTO instead.
 */
export function OneOf(
  ...alternatives: [OneOfAlternative, ...OneOfAlternative[]]
): PropertyDecorator {
  const unique = [...new Set(alternatives)];
  if (unique.length === 0) throw new TypeError('@OneOf() needs at least one alternative');
  const dtoCount = unique.filter(isDtoAlternative).length;
  const keyword = dtoCount <= 1 ? 'oneOf' : 'anyOf';
  const names = unique.map(alternativeName).join(', ');

  return (target, propertyKey) => {
    const key = propertyName(propertyKey, 'OneOf');
    registerDecorator({
      name: 'owlclawOneOf',
      target: target.constructor,
      propertyName: key,
      constraints: unique,
      validator: {
        validate: (value: unknown) => unique.some((alt) => matchesAlternative(alt, value)),
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} must be one of the following: ${names}`,
      },
    });
    // The converter's guess (from the TypeScript design type) is meaningless for a union: keep only
    // its annotations.
    addSchemaPatch(target, key, 'union', (source, options): SchemaNode => {
      const branches = unique.map((alt) => alternativeSchema(alt, options.refPointerPrefix));
      return { ...splitAnnotations(source).annotations, [keyword]: branches };
    });
  };
}
