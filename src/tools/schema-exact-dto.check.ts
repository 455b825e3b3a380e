import type { Type } from '@nestjs/common';
import Ajv2020 from 'ajv/dist/2020';
import { TransformationType } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { JsonSchemaObject } from './handler-options';

/**
 * Property forms the generated input schema states exactly, as a type
 * constraint and the bounds that may go with it (plus @IsOptional): the
 * forms dto-schema.property.spec.ts builds on random DTOs and for which it
 * checks that Ajv and class-validator give the same verdict. A bound without
 * its type (a lone @Min) is not one of them: class-validator then refuses a
 * string that the schema's `minimum` lets through.
 */
const SCHEMA_EXACT_FORMS: Readonly<Record<string, ReadonlySet<string>>> = {
  isString: new Set(['minLength', 'maxLength']),
  isNumber: new Set(['min', 'max']),
  isInt: new Set(['min', 'max']),
  isBoolean: new Set(),
  isIn: new Set(),
  isEnum: new Set(),
};

/** Fast checks are plain Ajv: the first failure is enough (class-validator then explains it). */
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, allErrors: false });

export type ArgumentsAcceptance = (args: Record<string, unknown>) => boolean;

/**
 * For a DTO whose every constraint its generated schema states exactly, an
 * Ajv check compiled from that schema: true means class-validator would
 * accept the arguments too, so a valid call skips it (class-validator looks
 * its constraints up by filtering every registered one on every call;
 * docs/performance.md). Undefined for any
 * other DTO (custom or conditional validators, `each`, groups, nested DTOs,
 * class-transformer decorators): class-validator alone decides for those.
 * Arguments Ajv refuses still go to class-validator, whose messages the
 * client gets, and which has the last word.
 */
export function compileSchemaExactCheck(
  dto: Type,
  schema: JsonSchemaObject,
): ArgumentsAcceptance | undefined {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const metadata of metadatas) {
    byProperty.set(metadata.propertyName, [
      ...(byProperty.get(metadata.propertyName) ?? []),
      metadata,
    ]);
  }
  if (byProperty.size === 0) return undefined;
  for (const [property, constraints] of byProperty) {
    if (!isSchemaExactProperty(constraints) || transformsProperty(dto, property)) return undefined;
  }
  if (defaultMetadataStorage.getExposedMetadatas(dto).length > 0) return undefined;
  if (defaultMetadataStorage.getExcludedMetadatas(dto).length > 0) return undefined;
  const validate = ajv.compile(schema);
  return (args) => validate(args);
}

/** One type constraint, only the bounds its form allows, optionally @IsOptional; nothing else. */
function isSchemaExactProperty(constraints: ValidationMetadata[]): boolean {
  const names: string[] = [];
  for (const metadata of constraints) {
    if (metadata.each || metadata.always || (metadata.groups?.length ?? 0) > 0) return false;
    if (metadata.context !== undefined) return false;
    if (metadata.type === 'conditionalValidation' && metadata.name === 'isOptional') continue;
    if (metadata.type !== 'customValidation' || metadata.name === undefined) return false;
    // IsNumber({ maxDecimalPlaces, allowNaN, ... }): options the schema does not state.
    if (metadata.name === 'isNumber' && !isEmptyOptions(metadata.constraints?.[0])) return false;
    names.push(metadata.name);
  }
  const kinds = names.filter((name) => name in SCHEMA_EXACT_FORMS);
  if (kinds.length !== 1) return false;
  const bounds = SCHEMA_EXACT_FORMS[kinds[0]];
  return names.every((name) => name === kinds[0] || bounds.has(name));
}

function isEmptyOptions(options: unknown): boolean {
  return (
    options === undefined ||
    (typeof options === 'object' && options !== null && Object.keys(options).length === 0)
  );
}

/** @Type, @Transform, @Expose or @Exclude: plainToInstance may change what class-validator sees. */
function transformsProperty(dto: Type, property: string): boolean {
  return (
    defaultMetadataStorage.findTypeMetadata(dto, property) !== undefined ||
    defaultMetadataStorage.findTransformMetadatas(dto, property, TransformationType.PLAIN_TO_CLASS)
      .length > 0 ||
    defaultMetadataStorage.findExposeMetadata(dto, property) !== undefined ||
    defaultMetadataStorage.findExcludeMetadata(dto, property) !== undefined
  );
}
