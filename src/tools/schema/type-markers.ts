import { isSchemaNode, mapSubschemas, SchemaNode, splitAnnotations } from './schema-node';

/**
 * Where converter outputs keep the JSON type they require until the property schema is complete.
 *
 * class-validator-jsonschema merges the outputs of a property's converters with lodash.merge, so
 * when two of them set `type` the LAST decorator registered wins: `@Min(0) @IsInt()` publishes
 * `type: 'number'` (Min's) and loses "integer", depending only on decorator order. class-validator
 * runs every validator, so the property's type is the INTERSECTION of what each one requires.
 * Converters therefore record their type here (merge unions the keys of this object) and
 * `resolveTypeMarkers` turns the set into one `type` afterwards.
 */
export const TYPE_MARKER = 'x-owlclaw-required-types';

/** Moves a top-level string `type` of a converter's output into the marker. */
export function markType(schema: SchemaNode): SchemaNode {
  const { type, ...rest } = schema;
  if (typeof type !== 'string') return schema;
  return { ...rest, [TYPE_MARKER]: { [type]: true } };
}

/**
 * The one JSON type satisfying every required type, or undefined when they contradict each other
 * (e.g. @IsString() with @IsNumber(): class-validator then accepts no value at all).
 * 'integer' is the only JSON type contained in another ('number').
 */
function intersectTypes(types: string[]): string | undefined {
  const set = new Set(types);
  if (set.size === 1) return types[0];
  if (set.size === 2 && set.has('integer') && set.has('number')) return 'integer';
  return undefined;
}

/**
 * Replaces every marker in the tree by a `type`. An explicit `type` already on the node wins: it
 * came from a @JSONSchema patch or from the library's own `each` wrapper (`type: 'array'`), both
 * deliberate. Contradictory requirements become `not: {}` (accepts nothing), which is exactly what
 * validation does with them.
 */
export function resolveTypeMarkers(schema: SchemaNode): SchemaNode {
  const { [TYPE_MARKER]: marker, ...rest } = schema;
  const node = mapSubschemas(rest, resolveTypeMarkers);
  if (!isSchemaNode(marker) || 'type' in node) return node;
  const type = intersectTypes(Object.keys(marker));
  if (type !== undefined) return { type, ...node };
  return { ...splitAnnotations(node).annotations, not: {} };
}
