import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import type { PathAnchor } from './config-paths';

/** How an MCP_SERVER_* variable's text becomes the key's value. */
export type LeafKind = 'string' | 'number' | 'boolean' | 'string[]';

/** What the schema says about one property beyond its validators. */
export type KeyDefinition =
  | { type: 'section'; schema: () => new () => object }
  | { type: 'leaf'; default: unknown; kind: LeafKind; anchor?: PathAnchor }
  /** Keyed by user-chosen names (client ids): set in the file only, default empty. */
  | { type: 'mapping' };

// Kept per class in declaration order, which is the order of the file and of the docs.
const KEYS = new WeakMap<object, Map<string, KeyDefinition>>();

function define(target: object, property: string, definition: KeyDefinition): void {
  const keys = KEYS.get(target.constructor) ?? new Map<string, KeyDefinition>();
  keys.set(property, definition);
  KEYS.set(target.constructor, keys);
}

/** The keys a schema class declares, with their definitions. */
export function schemaKeys(schema: new () => object): ReadonlyMap<string, KeyDefinition> {
  return KEYS.get(schema) ?? new Map();
}

function kindOf(value: unknown): LeafKind {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'string[]';
  throw new Error(`a config default of type ${typeof value} has no environment form`);
}

/** The built-in value of a key; its type also says how its MCP_SERVER_* variable is read. */
export function Default(value: unknown): PropertyDecorator {
  const kind = kindOf(value);
  return (target, property) =>
    define(target, String(property), { type: 'leaf', default: value, kind });
}

/** An optional key with no default (unset unless a layer sets it). */
export function Unset(kind: LeafKind): PropertyDecorator {
  return (target, property) =>
    define(target, String(property), { type: 'leaf', default: undefined, kind });
}

/** A filesystem path: relative values resolve by origin (see config-paths.ts). Goes above @Default/@Unset, which apply first. */
export function ConfigPath(anchor: PathAnchor): PropertyDecorator {
  return (target, property) => {
    const keys = KEYS.get(target.constructor);
    const leaf = keys?.get(String(property));
    if (leaf?.type !== 'leaf')
      throw new Error(`@ConfigPath on ${String(property)} needs @Default or @Unset below it`);
    keys!.set(String(property), { ...leaf, anchor });
  };
}

/** A nested section: validated as its own schema class, its defaults taken from it. */
export function Section(schema: () => new () => object): PropertyDecorator {
  return applyDecorators(
    (target: object, property: string | symbol) =>
      define(target, String(property), { type: 'section', schema }),
    Type(schema),
    ValidateNested(),
    IsObject(),
    IsDefined(),
  );
}

/** A mapping keyed by user-chosen names; its validators are on the property. */
export function Mapping(): PropertyDecorator {
  return (target, property) => define(target, String(property), { type: 'mapping' });
}

/** The built-in defaults of a schema class as plain data. */
export function defaultsOf(schema: new () => object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, definition] of schemaKeys(schema)) {
    if (definition.type === 'section') out[key] = defaultsOf(definition.schema());
    else if (definition.type === 'mapping') out[key] = {};
    else if (definition.default !== undefined) out[key] = structuredClone(definition.default);
  }
  return out;
}

/** One settable key: its path below mcp_server, how env text converts, and its path anchor if any. */
export interface SchemaLeaf {
  path: string[];
  kind: LeafKind;
  anchor?: PathAnchor;
}

/** Every key an MCP_SERVER_* variable can set (mappings are file-only), in declaration order. */
export function schemaLeaves(schema: new () => object, at: string[] = []): SchemaLeaf[] {
  const leaves: SchemaLeaf[] = [];
  for (const [key, definition] of schemaKeys(schema)) {
    const here = [...at, key];
    if (definition.type === 'section') leaves.push(...schemaLeaves(definition.schema(), here));
    else if (definition.type === 'leaf') {
      leaves.push({ path: here, kind: definition.kind, anchor: definition.anchor });
    }
  }
  return leaves;
}

/** The key names the schema allows directly under `parent` (for "did you mean" hints). */
export function schemaKeysAt(schema: new () => object, parent: readonly string[]): string[] {
  let current = schema;
  for (const segment of parent) {
    const definition = schemaKeys(current).get(segment);
    if (definition?.type !== 'section') return [];
    current = definition.schema();
  }
  return [...schemaKeys(current).keys()];
}
