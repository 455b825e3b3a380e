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
 * Where class-validator is looser than any useful schema, the schema is STRICTER, so a value the
 * schema accepts validates:
 * - `@ValidateNested()` alone also lets through `undefined` and arrays (even nested arrays) of
 *   the DTO: add `@IsObject()` (single) or `@IsArray()` + `@IsObject({ each: true })` (arrays);
 *   likewise a property whose only decorator is `@Allow()` is still listed as required;
 * - a validator with `{ each: true }` also validates a non-array value itself: add `@IsArray()`;
 * - `@IsEnum(NumericEnum)` also accepts the members' names ('Low' for Level.Low = 1);
 * - `@ValidateIf(cond)` (other than @Nullable's) and per-validator `validateIf` are treated as
 *   always true; validation groups are ignored.
 * Where the schema cannot know, it is LOOSER: opaque custom validators (registerDecorator) only
 * contribute their primitive design type, and `format`s (email, uri, uuid, date-time) are hints
 * on which validator.js and JSON Schema format checkers disagree in edge cases.
 *
 * Decorators for what the library lacks: @Description (class or property), @Nullable, @OneOf.
 */
export { generateDtoSchema } from './dto-schema.generator';
export { Description, Nullable, OneOf } from './schema.decorators';
export type { ClassOrPropertyDecorator } from './schema.decorators';
export type { DtoAlternative, OneOfAlternative } from './one-of.alternatives';
