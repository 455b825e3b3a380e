/**
 * DTO -> MCP `inputSchema`.
 *
 * `generateDtoSchema(Dto)` turns the class-validator / class-transformer metadata of a handler's
 * DTO into one self-contained JSON Schema 2020-12 object that accepts what the gateway's
 * validation (plainToInstance + validate with whitelist and forbidNonWhitelisted) accepts:
 * nested DTOs (`@ValidateNested()` + `@Type(() => Nested)`) inlined, recursive ones as `$ref`s
 * into `$defs`; `required` = every property without @IsOptional; `additionalProperties: false`;
 * null admitted where validation skips null (@IsOptional, @Nullable).
 *
 * Where class-validator is looser than any useful schema, the schema is STRICTER (a value the
 * schema accepts always validates):
 * - `@ValidateNested()` alone also lets through `undefined` and arrays of the DTO: add
 *   `@IsObject()` (single) or `@IsArray()` + `@IsObject({ each: true })` (arrays) for parity;
 * - a validator with `{ each: true }` also validates a non-array value itself: add `@IsArray()`;
 * - `@IsEnum(NumericEnum)` also accepts the members' names ('Low' for Level.Low = 1);
 * - `@ValidateIf(cond)` (other than @Nullable's) and per-validator `validateIf` are treated as
 *   always true; validation groups are ignored.
 * `format`s (email, uri, uuid, date-time) are hints: validator.js and JSON Schema format checkers
 * disagree on edge cases. Opaque custom validators contribute only their design type.
 */
export { generateDtoSchema } from './dto-schema.generator';
export { Description, Nullable, OneOf, isNullableCondition } from './schema.decorators';
export type { ClassOrPropertyDecorator } from './schema.decorators';
export type { DtoAlternative, OneOfAlternative } from './one-of.alternatives';
export { allowNull } from './null-schema';
