import { jsonEqual, SchemaNode, splitAnnotations } from './schema-node';

const NULL_SCHEMA: SchemaNode = { type: 'null' };

/**
 * Keywords after which adding 'null' to `type` is not enough to admit null: `enum`/`const` list
 * the accepted values, and the applicators/references carry their own constraints.
 */
const COMPLEX_KEYWORDS = [
  'enum',
  'const',
  '$ref',
  '$dynamicRef',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
];

function typeList(type: unknown): string[] | undefined {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type) && type.every((t): t is string => typeof t === 'string')) return type;
  return undefined;
}

/** True when the schema certainly accepts null already (conservative: false when unsure). */
export function acceptsNull(schema: SchemaNode): boolean {
  const { constraints } = splitAnnotations(schema);
  if (Object.keys(constraints).length === 0) return true;
  const types = typeList(constraints.type);
  const hasComplex = COMPLEX_KEYWORDS.some((k) => k in constraints);
  if (types?.includes('null') && !hasComplex) return true;
  if (Array.isArray(constraints.enum) && constraints.enum.includes(null)) {
    return (types === undefined || types.includes('null')) && !('const' in constraints);
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = constraints[keyword];
    if (Object.keys(constraints).length === 1 && Array.isArray(branches)) {
      if (branches.some((branch) => jsonEqual(branch, NULL_SCHEMA))) return true;
    }
  }
  return false;
}

/**
 * Returns a schema that accepts what `schema` accepts and also null, the way class-validator
 * treats a property whose conditional validation (@IsOptional, @Nullable) skips null:
 * - a plain typed schema gets 'null' added to its type (`type: ['string', 'null']`): the other
 *   keywords (minLength, items, ...) only constrain their own type, so they never reject null;
 * - anything else ($ref, enum, unions, ...) becomes `anyOf: [<schema>, { type: 'null' }]`, with
 *   its annotations (description, ...) lifted to the wrapper where clients read them.
 * Idempotent: a schema that already admits null is returned as is.
 */
export function allowNull(schema: SchemaNode): SchemaNode {
  if (acceptsNull(schema)) return schema;
  const { annotations, constraints } = splitAnnotations(schema);
  const types = typeList(constraints.type);
  if (types && !COMPLEX_KEYWORDS.some((k) => k in constraints)) {
    return { ...schema, type: [...types, 'null'] };
  }
  return { ...annotations, anyOf: [constraints, { ...NULL_SCHEMA }] };
}
