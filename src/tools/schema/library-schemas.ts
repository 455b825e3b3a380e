import { getMetadataStorage, MetadataStorage } from 'class-validator';
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

type MetadataMap = Map<unknown, readonly unknown[]>;

/**
 * class-validator's metadata per target class, or undefined if its storage is not laid out as
 * known here. The field is private in the typings, but it is exactly what
 * validationMetadatasToSchemas iterates (with getTargetValidatorConstraints, which is public).
 */
function metadataMap(storage: MetadataStorage): MetadataMap | undefined {
  const map: unknown = Reflect.get(storage, 'validationMetadatas');
  if (!(map instanceof Map)) return undefined;
  for (const list of map.values()) if (!Array.isArray(list)) return undefined;
  return map as MetadataMap;
}

/**
 * The library's schema map (`validationMetadatasToSchemas`), computed lazily, and recomputed when
 * classes were registered since (capability modules load their DTOs after the gateway's own).
 *
 * A class's schema depends only on its own and its ancestors' metadata, which is static once the
 * class is loaded, so a recomputation converts only the classes that are new (or whose metadata
 * count changed) plus their ancestors, through a view of the storage restricted to them. Converting
 * every class each time would make loading N DTO classes one by one cost O(N²).
 *
 * It also knows which class stands behind each name: the library keys schemas by class NAME, so
 * two classes of the same name would silently share one merged schema; asking for such a name
 * fails loudly instead.
 */
export class LibrarySchemas {
  private readonly schemas = new Map<string, SchemaNode>();
  private readonly classesByName = new Map<string, Set<ClassConstructor>>();
  /** Metadata count per target class when it was last converted. */
  private readonly converted = new Map<unknown, number>();
  /** Where the converters report the classes of the computation under way. */
  private recording: Map<string, Set<ClassConstructor>> | undefined;

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
      if (this.classesByName.get(candidate.name)?.has(candidate)) {
        return this.byName(candidate.name);
      }
      c = Object.getPrototypeOf(candidate);
    }
    return undefined;
  }

  /** The schema registered under a class name (as the library's references name it). */
  byName(name: string): LibrarySchema | undefined {
    this.refreshIfStale();
    const classes = this.classesByName.get(name);
    const schema = this.schemas.get(name);
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
    const storage = getMetadataStorage();
    const all = metadataMap(storage);
    if (!all) {
      // Unknown storage layout: convert everything, every time (slower, never stale).
      this.convert(storage);
      return;
    }
    const stale = [...all].filter(([target, list]) => this.converted.get(target) !== list.length);
    if (stale.length === 0) return;
    const subset: MetadataMap = new Map();
    for (const [target, list] of stale) {
      subset.set(target, list);
      if (typeof target !== 'function') continue;
      for (const [other, otherList] of all) {
        // Ancestors: the library merges their metadata into the subclass's schema.
        if (typeof other === 'function' && target.prototype instanceof other) {
          subset.set(other, otherList);
        }
      }
    }
    const view = {
      validationMetadatas: subset,
      getTargetValidatorConstraints: (target: ClassConstructor) =>
        storage.getTargetValidatorConstraints(target),
    } as unknown as MetadataStorage;
    this.convert(view);
    for (const [target, list] of stale) this.converted.set(target, list.length);
  }

  /** Runs the library over `storage` and merges the result, only if the whole run succeeded. */
  private convert(storage: MetadataStorage): void {
    const recording = new Map<string, Set<ClassConstructor>>();
    this.recording = recording;
    let schemas: Record<string, SchemaNode>;
    try {
      schemas = validationMetadatasToSchemas({
        ...this.options,
        classValidatorMetadataStorage: storage,
      }) as Record<string, SchemaNode>;
    } finally {
      this.recording = undefined;
    }
    for (const [name, schema] of Object.entries(schemas)) this.schemas.set(name, schema);
    for (const [name, classes] of recording) {
      const known = this.classesByName.get(name);
      if (known) for (const cls of classes) known.add(cls);
      else this.classesByName.set(name, classes);
    }
  }

  private recordClass(cls: ClassConstructor): void {
    const known = this.recording?.get(cls.name);
    if (known) known.add(cls);
    else this.recording?.set(cls.name, new Set([cls]));
  }
}
