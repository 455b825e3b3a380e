import { UNRESOLVED_MARKER } from './schema-converters';
import {
  forEachSchema,
  isAnnotationKeyword,
  jsonEqual,
  mapSubschemas,
  SchemaNode,
  splitAnnotations,
} from './schema-node';

/** Where the inliner finds the (normalised) schema of each DTO class referenced by name. */
export interface DtoSchemaSource {
  readonly refPrefix: string;
  /** Throws when the name cannot be resolved. */
  schemaOf(name: string): SchemaNode;
}

/** `#/$defs/<name>` with the name escaped as a JSON Pointer token. */
function defsPointer(name: string): string {
  return `#/$defs/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function referencedNames(schema: SchemaNode, refPrefix: string): Set<string> {
  const names = new Set<string>();
  forEachSchema(schema, (node) => {
    const unresolved = node[UNRESOLVED_MARKER];
    if (typeof unresolved === 'string')
      throw new Error(`Cannot generate the schema: ${unresolved}`);
    if (typeof node.$ref === 'string' && node.$ref.startsWith(refPrefix)) {
      names.add(node.$ref.slice(refPrefix.length));
    }
  });
  return names;
}

/**
 * The classes that lie on a reference cycle (a DTO containing itself, directly or not): those
 * cannot be inlined and stay as `$ref`s into `$defs`. Every other class is inlined.
 */
function recursiveClasses(root: string, edges: (name: string) => Set<string>): string[] {
  const reachableFrom = (start: string): Set<string> => {
    const seen = new Set<string>();
    const queue = [...edges(start)];
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      if (seen.has(name)) continue;
      seen.add(name);
      queue.push(...edges(name));
    }
    return seen;
  };
  const all = [root, ...reachableFrom(root)];
  return [...new Set(all)].filter((name) => reachableFrom(name).has(name));
}

/**
 * Puts a referenced schema in place of `{ $ref, ...siblings }`. The siblings were set on the
 * property (description, `type: 'object'` from @IsObject, ...): the property's annotations win,
 * identical keywords merge, and conflicting constraints are kept side by side with `allOf`.
 */
function mergeSiblings(inlined: SchemaNode, siblings: SchemaNode): SchemaNode {
  const result: SchemaNode = { ...inlined };
  for (const [keyword, value] of Object.entries(siblings)) {
    if (!(keyword in result) || isAnnotationKeyword(keyword) || jsonEqual(result[keyword], value)) {
      result[keyword] = value;
    } else {
      const { annotations, constraints } = splitAnnotations(siblings);
      return { ...annotations, allOf: [inlined, constraints] };
    }
  }
  return result;
}

/**
 * ONE self-contained schema for `root`: every referenced DTO inlined, except classes on a
 * reference cycle, which are defined once in `$defs` and referenced from there (the root too,
 * when it is recursive: its body is inlined at the top and its inner uses point to `$defs`).
 */
export function inlineDtoReferences(root: string, source: DtoSchemaSource): SchemaNode {
  const edgeCache = new Map<string, Set<string>>();
  const edges = (name: string): Set<string> => {
    let names = edgeCache.get(name);
    if (!names) {
      names = referencedNames(source.schemaOf(name), source.refPrefix);
      edgeCache.set(name, names);
    }
    return names;
  };
  const recursive = new Set(recursiveClasses(root, edges));

  const expand = (node: SchemaNode): SchemaNode => {
    const { $ref, ...siblings } = node;
    if (typeof $ref === 'string' && $ref.startsWith(source.refPrefix)) {
      const name = $ref.slice(source.refPrefix.length);
      const rest = mapSubschemas(siblings, expand);
      if (recursive.has(name)) return { $ref: defsPointer(name), ...rest };
      return mergeSiblings(mapSubschemas(source.schemaOf(name), expand), rest);
    }
    return mapSubschemas(node, expand);
  };

  const schema = mapSubschemas(source.schemaOf(root), expand);
  if (recursive.size === 0) return schema;
  const defs: SchemaNode = {};
  for (const name of recursive) defs[name] = mapSubschemas(source.schemaOf(name), expand);
  return { ...schema, $defs: defs };
}
