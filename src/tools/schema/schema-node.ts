/** A JSON Schema (sub)object while it is being built: plain JSON, no classes, no cycles. */
export type SchemaNode = Record<string, unknown>;

/** A class whose metadata (class-validator, class-transformer, JSONSchema) describes a DTO. */
export type ClassConstructor = abstract new (...args: never[]) => unknown;

export function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Keywords that describe a value without constraining it. When a schema is wrapped (in `anyOf`,
 * `allOf`, ...) they stay on the outermost object, where clients and LLMs look for them.
 */
const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
]);

export function isAnnotationKeyword(keyword: string): boolean {
  return ANNOTATION_KEYWORDS.has(keyword);
}

/** Splits a schema into its annotations and its constraints (both shallow copies). */
export function splitAnnotations(schema: SchemaNode): {
  annotations: SchemaNode;
  constraints: SchemaNode;
} {
  const annotations: SchemaNode = {};
  const constraints: SchemaNode = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (isAnnotationKeyword(keyword)) annotations[keyword] = value;
    else constraints[keyword] = value;
  }
  return { annotations, constraints };
}

/** Structural equality of two JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => jsonEqual(item, b[i]))
    );
  }
  if (!isSchemaNode(a) || !isSchemaNode(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]))
  );
}

/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set([
  'allOf',
  'anyOf',
  'oneOf',
  'prefixItems',
]);
/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);

/**
 * A copy of `schema` with `fn` applied to each DIRECT subschema, found by keyword (so a property
 * named "enum" or "default" is still a schema, and `enum`/`const`/`default` values never are).
 * Boolean subschemas and unknown keywords are copied as they are.
 */
export function mapSubschemas(schema: SchemaNode, fn: (sub: SchemaNode) => SchemaNode): SchemaNode {
  const apply = (value: unknown): unknown => (isSchemaNode(value) ? fn(value) : value);
  const result: SchemaNode = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (SCHEMA_MAP_KEYWORDS.has(keyword) && isSchemaNode(value)) {
      result[keyword] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, apply(v)]));
    } else if (SCHEMA_LIST_KEYWORDS.has(keyword) && Array.isArray(value)) {
      result[keyword] = value.map(apply);
    } else if (SCHEMA_KEYWORDS.has(keyword)) {
      result[keyword] = apply(value);
    } else {
      result[keyword] = value;
    }
  }
  return result;
}

/** Calls `visit` on every schema object of the tree, parents first. */
export function forEachSchema(schema: SchemaNode, visit: (node: SchemaNode) => void): void {
  visit(schema);
  mapSubschemas(schema, (sub) => {
    forEachSchema(sub, visit);
    return sub;
  });
}
