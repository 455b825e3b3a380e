import { getMetadataStorage, IS_OPTIONAL, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { allowNull } from './null-schema';
import { isNullableCondition } from './schema.decorators';
import { ClassConstructor, isSchemaNode, SchemaNode } from './schema-node';
import { resolveTypeMarkers } from './type-markers';

/** The metadata class-validator itself runs for `cls` (own and inherited, no groups). */
function metadataByProperty(cls: ClassConstructor): Map<string, ValidationMetadata[]> {
  const metas = getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const meta of metas) {
    const list = byProperty.get(meta.propertyName);
    if (list) list.push(meta);
    else byProperty.set(meta.propertyName, [meta]);
  }
  return byProperty;
}

const isConditional = (meta: ValidationMetadata): boolean =>
  meta.type === ValidationTypes.CONDITIONAL_VALIDATION;

/** @IsOptional: class-validator skips the property when it is undefined OR null. */
function isOptional(metas: readonly ValidationMetadata[]): boolean {
  return metas.some((meta) => isConditional(meta) && meta.name === IS_OPTIONAL);
}

/** Null skips every validator (conditions are AND-ed): @IsOptional or @Nullable. */
function admitsNull(metas: readonly ValidationMetadata[]): boolean {
  return (
    isOptional(metas) ||
    metas.some((meta) => isConditional(meta) && isNullableCondition(meta.constraints?.[0]))
  );
}

/**
 * Turns the library's schema of one class into what class-validator accepts for it, with
 * `@Type`-nested classes still as references (the inliner resolves those):
 * - `type`s resolved from the converters' markers (intersection, not last-wins);
 * - `required`: every property but the @IsOptional ones. The library also counts any @ValidateIf
 *   as optional, which would make @Nullable properties optional;
 * - null admitted where validation skips null (@IsOptional, @Nullable);
 * - `additionalProperties: false`: the gateway validates with forbidNonWhitelisted, so a property
 *   without validation metadata is an error, and only those with metadata are in `properties`.
 */
export function normalizeClassSchema(cls: ClassConstructor, librarySchema: SchemaNode): SchemaNode {
  const schema = resolveTypeMarkers(librarySchema);
  const metas = metadataByProperty(cls);
  const exposed = defaultMetadataStorage.getExposedMetadatas(cls);
  // @Expose({ name }) renames the property in the plain object, hence in the schema.
  const propertyNameOf = (schemaName: string): string =>
    exposed.find((meta) => meta.options?.name === schemaName)?.propertyName ?? schemaName;

  const properties: SchemaNode = {};
  const required: string[] = [];
  const libraryProperties = isSchemaNode(schema.properties) ? schema.properties : {};
  for (const [name, propertySchema] of Object.entries(libraryProperties)) {
    if (!isSchemaNode(propertySchema)) continue;
    const propertyMetas = metas.get(propertyNameOf(name)) ?? [];
    properties[name] = admitsNull(propertyMetas) ? allowNull(propertySchema) : propertySchema;
    if (!isOptional(propertyMetas)) required.push(name);
  }

  const rest: SchemaNode = { ...schema };
  delete rest.required;
  delete rest.properties;
  return {
    ...rest,
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}
