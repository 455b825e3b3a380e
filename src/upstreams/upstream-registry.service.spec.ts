import { Logger } from '@nestjs/common';
import { DEFAULT_CONFIG } from '../config/config.defaults';
import { GatewayConfig } from '../config/gateway-config';
import { RegistryDirFixture, stdioYaml } from './testing/registry-dir.fixture';
import * as fs from 'node:fs';
import { StoredRegistryFile } from './registry.scanner';
import { UpstreamRecordStore } from './upstream-record.store';
import { RegistryChange, UpstreamRegistryService } from './upstream-registry.service';

let fixture: RegistryDirFixture;

beforeEach(() => {
  fixture = new RegistryDirFixture();
});

afterEach(() => {
  fixture.remove();
  jest.restoreAllMocks();
});

function service(store?: UpstreamRecordStore): UpstreamRegistryService {
  const config = structuredClone<GatewayConfig>(DEFAULT_CONFIG);
  config.upstreams.registry_dir = fixture.dir;
  return new UpstreamRegistryService(config, store);
}

/** A shared store held in memory, whose reads can be made to fail, as PostgreSQL's can. */
class MemoryStore implements UpstreamRecordStore {
  readonly kind = 'postgres';
  files: StoredRegistryFile[] = [];
  failing = false;
  lists = 0;
  list(): Promise<StoredRegistryFile[]> {
    this.lists++;
    return this.failing
      ? Promise.reject(new Error('connection refused'))
      : Promise.resolve(this.files);
  }
  revision(): Promise<string> {
    return Promise.resolve(String(this.files.length));
  }
  put(): Promise<void> {
    return Promise.resolve();
  }
  remove(): Promise<void> {
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function quiet(): void {
  jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
}

describe('UpstreamRegistryService', () => {
  it('scans at start, logging each rejected file and a summary, never a secret', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    fixture.write('good.yaml', stdioYaml('good', '  env: { TOKEN: "${ENV:UPSTREAM_SPEC_TOKEN}" }'));
    fixture.write('bad.yaml', stdioYaml('BAD'));
    process.env.UPSTREAM_SPEC_TOKEN = 'never-logged-secret';
    const registry = service();
    try {
      await registry.onModuleInit();
    } finally {
      delete process.env.UPSTREAM_SPEC_TOKEN;
    }

    expect(registry.current.servers.map((s) => s.server_id)).toEqual(['good']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatchObject({
      msg: 'upstream registry file rejected',
      file: 'bad.yaml',
      reason: expect.stringContaining('server_id:'),
    });
    expect(log).toHaveBeenCalledWith(
      expect.objectContaining({
        msg: 'upstream registry loaded',
        servers: 1,
        server_ids: ['good'],
        rejected: 1,
        revision: registry.current.revision,
      }),
    );
    const logged = JSON.stringify([...warn.mock.calls, ...log.mock.calls]);
    expect(logged).not.toContain('never-logged-secret');
  });

  it('refuses to be read before it has scanned', () => {
    expect(() => service().current).toThrow('before the module started');
  });

  describe('rescan', () => {
    it('replaces the snapshot and tells listeners what changed, by server', async () => {
      quiet();
      fixture.write('a.yaml', stdioYaml('a'));
      fixture.write('b.yaml', stdioYaml('b'));
      const registry = service();
      await registry.onModuleInit();
      const changes: RegistryChange[] = [];
      registry.onChange((change) => changes.push(change));
      const first = registry.current;

      fixture.write('a.yaml', stdioYaml('a', '  env: { LEVEL: debug }'));
      fs.unlinkSync(`${fixture.dir}/b.yaml`);
      fixture.write('c.yaml', stdioYaml('c'));
      const next = await registry.rescan('file');

      expect(next).toBe(registry.current);
      expect(next.revision).not.toBe(first.revision);
      expect(changes).toHaveLength(1);
      expect(changes[0]).toMatchObject({
        previous: first,
        current: next,
        trigger: 'file',
        diff: { added: ['c'], removed: ['b'], changed: ['a'] },
      });
    });

    it('says nothing when the server set is unchanged (a renamed file changes no server)', async () => {
      quiet();
      fixture.write('a.yaml', stdioYaml('a'));
      const registry = service();
      await registry.onModuleInit();
      const listener = jest.fn();
      registry.onChange(listener);
      fs.renameSync(`${fixture.dir}/a.yaml`, `${fixture.dir}/10-a.yaml`);
      fixture.write('broken.yaml', stdioYaml('BROKEN'));
      const next = await registry.rescan('sighup');
      expect(listener).not.toHaveBeenCalled();
      // The rejected files are current all the same.
      expect(next.rejected.map((r) => r.file)).toEqual(['broken.yaml']);
    });

    it('keeps the old snapshot and reports degraded while the directory cannot be read', async () => {
      quiet();
      fixture.write('a.yaml', stdioYaml('a'));
      const registry = service();
      await registry.onModuleInit();
      const before = registry.current;
      const listener = jest.fn();
      registry.onChange(listener);

      fs.rmSync(fixture.dir, { recursive: true });
      fs.writeFileSync(fixture.dir, 'a file where the directory was');
      expect(await registry.rescan('file')).toBe(before);
      expect(registry.degraded).toMatchObject({
        trigger: 'file',
        reason: expect.stringContaining('not a directory'),
      });
      expect(listener).not.toHaveBeenCalled();

      fs.unlinkSync(fixture.dir);
      fs.mkdirSync(fixture.dir);
      await registry.rescan('file');
      expect(registry.degraded).toBeUndefined();
      expect(registry.current.servers).toEqual([]);
      expect(listener).toHaveBeenCalledTimes(1);
    });

    it('merges stored records after the files (they win a server_id) and degrades when the store fails', async () => {
      quiet();
      fixture.write('a.yaml', stdioYaml('a'));
      const store = new MemoryStore();
      store.files = [
        { name: 'postgres:a.yaml', bytes: Buffer.from(stdioYaml('a', '  env: { FROM: store }')) },
      ];
      const registry = service(store);
      await registry.onModuleInit();
      expect(registry.current.servers.map((s) => s.file)).toEqual(['postgres:a.yaml']);
      expect(registry.current.warnings.join()).toContain('postgres:a.yaml wins');

      store.failing = true;
      const kept = registry.current;
      expect(await registry.rescan('poll')).toBe(kept);
      expect(registry.degraded?.reason).toContain('connection refused');
      store.failing = false;
      await registry.rescan('poll');
      expect(registry.degraded).toBeUndefined();
    });

    it('runs at most one scan behind the running one, however many are asked for', async () => {
      quiet();
      const store = new MemoryStore();
      const registry = service(store);
      await registry.onModuleInit();
      store.lists = 0;
      await Promise.all(Array.from({ length: 50 }, () => registry.rescan('replica')));
      expect(store.lists).toBe(2);
    });
  });
});
