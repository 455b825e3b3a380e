import type { Type } from '@nestjs/common';
import { getMetadataSchema } from 'class-validator-jsonschema/build/decorators';
import { defaultOptions } from 'class-validator-jsonschema/build/options';
import type { JsonSchemaObject } from '../handler-options';
import { normalizeClassSchema } from './class-schema.normalizer';
import { LibrarySchemas } from './library-schemas';
import { inlineDtoReferences } from './ref-inliner';
import { ClassConstructor, SchemaNode } from './schema-node';

const librarySchemas = new LibrarySchemas();
/** Final schemas per DTO class: metadata is static once a class is loaded. */
const cache = new WeakMap<ClassConstructor, SchemaNode>();

/**
 * A DTO without any validation metadata (a tool without arguments): an empty object, plus its
 * class-level @JSONSchema/@Description. NOTE: class-validator (forbidUnknownValues, on by default)
 * rejects instances of such classes; the gateway's validation must special-case them.
 */
function emptyObjectSchema(dto: ClassConstructor): SchemaNode {
  const base: SchemaNode = { type: 'object', properties: {}, additionalProperties: false };
  const classSchema = getMetadataSchema(dto.prototype as object, dto.name);
  // Called the way the library calls class-level @JSONSchema functions: with complete options.
  const options = { ...defaultOptions, ...librarySchemas.options };
  if (typeof classSchema === 'function') {
    return classSchema(base, options) as SchemaNode;
  }
  return { ...base, ...(classSchema as SchemaNode) };
}

function buildSchema(dto: ClassConstructor): SchemaNode {
  const root = librarySchemas.forClass(dto);
  if (!root) return emptyObjectSchema(dto);
  const normalized = new Map<string, SchemaNode>([
    [root.name, normalizeClassSchema(root.cls, root.schema)],
  ]);
  return inlineDtoReferences(root.name, {
    refPrefix: librarySchemas.options.refPointerPrefix,
    schemaOf(name) {
      let schema = normalized.get(name);
      if (!schema) {
        const entry = librarySchemas.byName(name);
        if (!entry) {
          throw new Error(
            `Cannot generate the schema of ${dto.name}: nested DTO class "${name}" has no ` +
              'class-validator metadata (decorate its properties).',
          );
        }
        schema = normalizeClassSchema(entry.cls, entry.schema);
        normalized.set(name, schema);
      }
      return schema;
    },
  });
}

/**
 * The MCP `inputSchema` of a handler whose first parameter is `dto`: one self-contained JSON
 * Schema (2020-12) object, `type: 'object'`, describing what class-transformer + class-validator
 * (whitelist, forbidNonWhitelisted) accept for it — see index.ts for the rules and the limits.
 * Returns a fresh copy on every call; callers may mutate it.
 */
export function generateDtoSchema(dto: Type): JsonSchemaObject {
  let schema = cache.get(dto);
  if (!schema) {
    schema = buildSchema(dto);
    cache.set(dto, schema);
  }
  return structuredClone(schema);
}
