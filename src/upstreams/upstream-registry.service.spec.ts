import { Logger } from '@nestjs/common';
import { DEFAULT_CONFIG } from '../config/config.defaults';
import { GatewayConfig } from '../config/gateway-config';
import { RegistryDirFixture, stdioYaml } from './testing/registry-dir.fixture';
import { UpstreamRegistryService } from './upstream-registry.service';

let fixture: RegistryDirFixture;

beforeEach(() => {
  fixture = new RegistryDirFixture();
});

afterEach(() => {
  fixture.remove();
  jest.restoreAllMocks();
});

function service(): UpstreamRegistryService {
  const config = structuredClone<GatewayConfig>(DEFAULT_CONFIG);
  config.upstreams.registry_dir = fixture.dir;
  return new UpstreamRegistryService(config);
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
});
