import { Logger } from '@nestjs/common';
import * as fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { DEFAULT_CONFIG } from '../config/config.defaults';
import { GatewayConfig } from '../config/gateway-config';
import { RegistryDirFixture, stdioYaml } from './testing/registry-dir.fixture';
import { RegistryDirWatcher } from './registry-dir.watcher';
import { UpstreamRegistryService } from './upstream-registry.service';

let fixture: RegistryDirFixture;
let watcher: RegistryDirWatcher | undefined;

beforeEach(() => {
  fixture = new RegistryDirFixture();
  jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
});

afterEach(() => {
  watcher?.onApplicationShutdown();
  fixture.remove();
  jest.restoreAllMocks();
});

async function watched(): Promise<UpstreamRegistryService> {
  const config = structuredClone<GatewayConfig>(DEFAULT_CONFIG);
  config.upstreams.registry_dir = fixture.dir;
  const registry = new UpstreamRegistryService(config);
  await registry.onModuleInit();
  watcher = new RegistryDirWatcher(registry);
  watcher.onApplicationBootstrap();
  return registry;
}

async function serverIds(registry: UpstreamRegistryService, expected: string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  const ids = () => registry.current.servers.map((s) => s.server_id);
  while (JSON.stringify(ids()) !== JSON.stringify(expected)) {
    if (Date.now() > deadline)
      throw new Error(`servers ${JSON.stringify(ids())}, expected ${JSON.stringify(expected)}`);
    await delay(50);
  }
}

describe('RegistryDirWatcher', () => {
  it('scans once a burst of writes settles', async () => {
    const registry = await watched();
    const rescan = jest.spyOn(registry, 'rescan');
    for (let i = 0; i < 20; i++) fixture.write(`s${i}.yaml`, stdioYaml(`s${i}`));
    await serverIds(registry, Array.from({ length: 20 }, (_, i) => `s${i}`).sort());
    await delay(400);
    expect(rescan.mock.calls.length).toBeLessThanOrEqual(2);
  });

  it('survives the directory being removed and made again, and finds one that was absent at start', async () => {
    fs.rmSync(fixture.dir, { recursive: true });
    const registry = await watched();
    fs.mkdirSync(fixture.dir);
    fixture.write('late.yaml', stdioYaml('late'));
    await serverIds(registry, ['late']);

    fs.rmSync(fixture.dir, { recursive: true });
    await serverIds(registry, []);
    fs.mkdirSync(fixture.dir);
    fixture.write('again.yaml', stdioYaml('again'));
    await serverIds(registry, ['again']);
    fixture.write('more.yaml', stdioYaml('more'));
    await serverIds(registry, ['again', 'more']);
  }, 30_000);
});
