import { getMetadataStorage } from 'class-validator';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { IOptions } from 'class-validator-jsonschema/build/options';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { createConverters } from './schema-converters';
import { ClassConstructor, SchemaNode } from './schema-node';

/**
 * Prefix of the references the library emits between DTO schemas. Deliberately not `#/$defs/`:
 * the generator inlines them, and a distinct prefix can never be confused with a `$ref` a user
 * wrote in a @JSONSchema.
 */
export const INTERNAL_REF_PREFIX = '#/x-owlclaw-dto/';

/** A class's schema as class-validator-jsonschema produced it, before our normalisation. */
export interface LibrarySchema {
  readonly name: string;
  readonly cls: ClassConstructor;
  readonly schema: SchemaNode;
}

/**
 * Total number of class-validator metadata entries, or undefined when the storage's layout is not
 * the one known here (then every call recomputes: slower, never stale). `validationMetadatas` is
 * private in the typings; class-validator-jsonschema reads the very same field.
 */
function metadataCount(): number | undefined {
  const map: unknown = Reflect.get(getMetadataStorage(), 'validationMetadatas');
  if (!(map instanceof Map)) return undefined;
  let count = 0;
  for (const list of map.values()) count += Array.isArray(list) ? list.length : 0;
  return count;
}

/**
 * The library's schema map (`validationMetadatasToSchemas`: every registered class at once),
 * computed lazily and recomputed when metadata was registered since — capability modules load
 * their DTOs after the gateway's own. It also knows which class stands behind each name: the
 * library keys schemas by class NAME, so two classes of the same name would silently share a
 * merged schema; asking for such a name fails loudly instead.
 */
export class LibrarySchemas {
  private schemas: Record<string, SchemaNode> = {};
  private classesByName = new Map<string, Set<ClassConstructor>>();
  private computedAt: number | undefined;
  private computed = false;

  readonly options: Partial<IOptions> & Pick<IOptions, 'refPointerPrefix'> = {
    refPointerPrefix: INTERNAL_REF_PREFIX,
    classTransformerMetadataStorage: defaultMetadataStorage,
    additionalConverters: createConverters((cls) => this.recordClass(cls)),
  };

  /** The schema registered for `cls`, or for its nearest ancestor with validation metadata. */
  forClass(cls: ClassConstructor): LibrarySchema | undefined {
    this.refreshIfStale();
    for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype;) {
      const candidate = c as ClassConstructor;
      if (this.classesByName.get(candidate.name)?.has(candidate))
        return this.byName(candidate.name);
      c = Object.getPrototypeOf(candidate);
    }
    return undefined;
  }

  /** The schema registered under a class name (as the library's references name it). */
  byName(name: string): LibrarySchema | undefined {
    this.refreshIfStale();
    const classes = this.classesByName.get(name);
    const schema = this.schemas[name];
    if (!classes || !schema) return undefined;
    if (classes.size > 1) {
      throw new Error(
        `Cannot generate a schema involving DTO class "${name}": ${classes.size} different classes ` +
          'with validation metadata have that name, and class-validator-jsonschema keys schemas by ' +
          'class name (their properties would be merged). Rename one of them.',
      );
    }
    const [cls] = classes;
    return { name, cls, schema };
  }

  private refreshIfStale(): void {
    const count = metadataCount();
    if (this.computed && count !== undefined && count === this.computedAt) return;
    this.classesByName = new Map();
    this.schemas = validationMetadatasToSchemas(this.options) as Record<string, SchemaNode>;
    this.computedAt = count;
    this.computed = true;
  }

  private recordClass(cls: ClassConstructor): void {
    const known = this.classesByName.get(cls.name);
    if (known) known.add(cls);
    else this.classesByName.set(cls.name, new Set([cls]));
  }
}
