/**
 * class-transformer ships the typings of its metadata singleton under `types/`, but its CommonJS
 * build (the only one Node and Jest load here) lives under `cjs/`. class-validator-jsonschema needs
 * that exact singleton to resolve `@Type(() => Nested)` and `@Expose({ name })`, so declare the
 * runtime path with the published typings.
 */
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}

/** The executor whose quadratic getKeys src/tools/class-transformer-keys.ts replaces. */
declare module 'class-transformer/cjs/TransformOperationExecutor' {
  export { TransformOperationExecutor } from 'class-transformer/types/TransformOperationExecutor';
}
