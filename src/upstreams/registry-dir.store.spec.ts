import * as fs from 'node:fs';
import * as path from 'node:path';
import { RegistryDirFixture, stdioYaml } from './testing/registry-dir.fixture';
import { RegistryDirStore } from './registry-dir.store';
import { RecordStoreConflict } from './upstream-record.store';

let fixture: RegistryDirFixture;

beforeEach(() => {
  fixture = new RegistryDirFixture();
});

afterEach(() => fixture.remove());

describe('RegistryDirStore (embedded mode)', () => {
  it('writes <server_id>.<ext> through a temporary file, leaving nothing else behind', async () => {
    const store = new RegistryDirStore(fixture.dir);
    await store.put('alpha', 'yaml', stdioYaml('alpha'));
    expect(fs.readdirSync(fixture.dir)).toEqual(['alpha.yaml']);
    expect(fs.readFileSync(path.join(fixture.dir, 'alpha.yaml'), 'utf8')).toBe(stdioYaml('alpha'));
  });

  it('replaces the file that defined the server when the new one has another name', async () => {
    fixture.write('10-alpha.toml', 'version = 1');
    const store = new RegistryDirStore(fixture.dir);
    await store.put('alpha', 'json', '{}', '10-alpha.toml');
    expect(fs.readdirSync(fixture.dir)).toEqual(['alpha.json']);
  });

  it('removes the defining file, and refuses names outside the directory', async () => {
    fixture.write('alpha.yaml', stdioYaml('alpha'));
    const store = new RegistryDirStore(fixture.dir);
    await store.remove('alpha', 'alpha.yaml');
    expect(fs.readdirSync(fixture.dir)).toEqual([]);
    await expect(store.remove('x', '../outside.yaml')).rejects.toBeInstanceOf(RecordStoreConflict);
    await expect(store.remove('x', 'postgres:x.json')).rejects.toThrow(
      'cannot remove postgres:x.json',
    );
  });

  it('reports a file it cannot write with the file and the reason', async () => {
    const notADir = fixture.writeOutside('plain-file', 'x');
    const store = new RegistryDirStore(notADir);
    const error = await store.put('alpha', 'json', '{}').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RecordStoreConflict);
    expect((error as Error).message).toMatch(
      /cannot write alpha\.json in .*plain-file \(E[A-Z]+\)/,
    );
  });
});
