import { getMetadataStorage } from 'class-validator';
import { schemaKeys, schemaLeaves } from './config-schema.decorators';
import { GatewayConfigSchema } from './config.schema';

/** Every section class reachable from the root, with its key path. */
function sections(
  schema: new () => object,
  at: string[] = [],
): Array<{ schema: new () => object; at: string[] }> {
  const found = [{ schema, at }];
  for (const [key, definition] of schemaKeys(schema)) {
    if (definition.type === 'section') found.push(...sections(definition.schema(), [...at, key]));
  }
  return found;
}

describe('config schema definitions', () => {
  it('gives every validated key a default, an @Unset, a section or a mapping', () => {
    for (const { schema, at } of sections(GatewayConfigSchema)) {
      const validated = new Set(
        getMetadataStorage()
          .getTargetValidationMetadatas(schema, '', true, false)
          .map((metadata) => metadata.propertyName),
      );
      expect({ at, keys: [...schemaKeys(schema).keys()].sort() }).toEqual({
        at,
        keys: [...validated].sort(),
      });
    }
  });

  it('marks exactly the filesystem paths with @ConfigPath', () => {
    const anchored = schemaLeaves(GatewayConfigSchema)
      .filter((leaf) => leaf.anchor !== undefined)
      .map((leaf) => `${leaf.path.join('.')}:${leaf.anchor}`);
    expect(anchored).toEqual([
      'http.tls.cert_file:cwd',
      'http.tls.key_file:cwd',
      'resources.skills_dir:installation',
      'capabilities.modules:cwd',
      'upstreams.registry_dir:installation',
      'upstreams.secret_dirs:cwd',
      'tasks.sqlite_path:state',
      'ledger.sqlite_path:state',
    ]);
  });
});
