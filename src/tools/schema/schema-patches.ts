import 'reflect-metadata';
import { JSONSchema } from 'class-validator-jsonschema';
import { DecoratorSchema, getMetadataSchema } from 'class-validator-jsonschema/build/decorators';
import type { IOptions } from 'class-validator-jsonschema/build/options';
import type { SchemaObject } from 'openapi3-ts';
import { isSchemaNode, SchemaNode } from './schema-node';

/**
 * Lets several decorators contribute to the schema of one property (or class).
 *
 * class-validator-jsonschema keeps ONE @JSONSchema value per property: a second @JSONSchema
 * silently replaces the first, so @Description and @OneOf on the same property would erase each
 * other. Each of our decorators therefore appends a patch to a list kept beside the library's
 * metadata and (re)registers a single @JSONSchema function that applies the whole list. A plain
 * @JSONSchema(...) applied BEFORE ours (i.e. written below ours) is absorbed as the first patch; one
 * applied after ours replaces our function, as it would replace any other @JSONSchema.
 */

/** What a patch does; patches apply in this order whatever the decorator order in the source. */
export type SchemaPatchKind = 'base' | 'union' | 'description';
const APPLY_ORDER: Record<SchemaPatchKind, number> = { base: 0, union: 1, description: 2 };

export type SchemaPatch = (source: SchemaNode, options: IOptions) => SchemaNode;

interface PatchEntry {
  readonly kind: SchemaPatchKind;
  readonly patch: SchemaPatch;
  /** The @JSONSchema value a 'base' entry came from, so it is absorbed only once. */
  readonly origin?: DecoratorSchema;
}

const PATCHES_KEY = Symbol('owlclaw:schema-patches');
/** The @JSONSchema functions registered here (to tell them from a user's own @JSONSchema). */
const composedFunctions = new WeakSet<object>();

function deepMerge(base: SchemaNode, extra: SchemaNode): SchemaNode {
  const result: SchemaNode = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = result[key];
    result[key] = isSchemaNode(current) && isSchemaNode(value) ? deepMerge(current, value) : value;
  }
  return result;
}

/** A user's @JSONSchema value as a patch: functions are called, objects merged (as the library does). */
function toPatch(schema: DecoratorSchema): SchemaPatch {
  if (typeof schema === 'function') {
    return (source, options) => schema(source, options) as SchemaNode;
  }
  const extra = schema as SchemaNode;
  return (source) => deepMerge(source, extra);
}

/**
 * Adds a patch to the schema of `target[key]` (property decorator arguments) or, without `key`,
 * of the class `target` (class decorator argument).
 */
export function addSchemaPatch(
  target: object,
  key: string | undefined,
  kind: SchemaPatchKind,
  patch: SchemaPatch,
): void {
  // The library stores property schemas on the constructor under the property name, and the class
  // schema on the constructor under the class name.
  const owner = key === undefined ? target : target.constructor;
  const metadataKey = key ?? (target as { name: string }).name;
  const prototype = key === undefined ? (target as { prototype: object }).prototype : target;

  const inherited = Reflect.getMetadata(PATCHES_KEY, owner, metadataKey) as
    readonly PatchEntry[] | undefined;
  const entries: PatchEntry[] = [...(inherited ?? [])];
  const existing = getMetadataSchema(prototype, metadataKey);
  const isEmptyObject = typeof existing === 'object' && Object.keys(existing).length === 0;
  if (
    !isEmptyObject &&
    !composedFunctions.has(existing) &&
    !entries.some((entry) => entry.origin === existing)
  ) {
    entries.push({ kind: 'base', patch: toPatch(existing), origin: existing });
  }
  entries.push({ kind, patch });
  Reflect.defineMetadata(PATCHES_KEY, entries, owner, metadataKey);

  const ordered = [...entries].sort((a, b) => APPLY_ORDER[a.kind] - APPLY_ORDER[b.kind]);
  const composed = (source: SchemaObject, options: IOptions): SchemaObject =>
    ordered.reduce<SchemaNode>(
      (schema, entry) => entry.patch(schema, options),
      source as SchemaNode,
    );
  composedFunctions.add(composed);
  JSONSchema(composed)(target, key);
}
