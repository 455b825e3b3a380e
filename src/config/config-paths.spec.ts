import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { INSTALLATION_ROOT, userDataDir } from './config-paths';
import { loadGatewayConfig } from './config.loader';

let cwd: string;
let etc: string;

beforeEach(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'config-paths-cwd-'));
  etc = fs.mkdtempSync(path.join(os.tmpdir(), 'config-paths-etc-'));
});

afterEach(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
  fs.rmSync(etc, { recursive: true, force: true });
});

function configFile(text: string): string {
  const file = path.join(etc, 'gateway.yaml');
  fs.writeFileSync(file, text);
  return file;
}

describe('config paths', () => {
  it('resolves paths written in a config file against that file, not the working directory', () => {
    fs.mkdirSync(path.join(etc, 'tls'));
    fs.writeFileSync(path.join(etc, 'tls', 'server.crt'), 'cert');
    fs.writeFileSync(path.join(etc, 'tls', 'server.key'), 'key');
    const file = configFile(
      [
        'mcp_server:',
        '  http:',
        '    tls: { enabled: true, cert_file: tls/server.crt, key_file: tls/server.key }',
        '  resources: { skills_dir: ./skills }',
        '  upstreams: { registry_dir: mcp.d }',
        '  capabilities: { modules: [mods/pack.js] }',
        '  ledger: { sqlite_path: ../var/ledger.db }',
        '',
      ].join('\n'),
    );
    const cfg = loadGatewayConfig({ configPath: file, cwd, env: {} });
    expect(cfg.resources.skills_dir).toBe(path.join(etc, 'skills'));
    expect(cfg.upstreams.registry_dir).toBe(path.join(etc, 'mcp.d'));
    expect(cfg.capabilities.modules).toEqual([path.join(etc, 'mods', 'pack.js')]);
    expect(cfg.ledger.sqlite_path).toBe(path.resolve(etc, '..', 'var', 'ledger.db'));
    expect(cfg.http.tls.cert_file).toBe(path.join(etc, 'tls', 'server.crt'));
    expect(cfg.http.tls.key_file).toBe(path.join(etc, 'tls', 'server.key'));
  });

  it('resolves paths from the environment and flags against the working directory', () => {
    const cfg = loadGatewayConfig({
      cwd,
      env: { MCP_SERVER_SKILLS_DIR: 'skills', MCP_SERVER_LEDGER_SQLITE_PATH: 'l.db' },
      overrides: { capabilities: { modules: ['pack.js'] } },
    });
    expect(cfg.resources.skills_dir).toBe(path.join(cwd, 'skills'));
    expect(cfg.ledger.sqlite_path).toBe(path.join(cwd, 'l.db'));
    expect(cfg.capabilities.modules).toEqual([path.join(cwd, 'pack.js')]);
  });

  it('serves the bundled skills of the installation when no layer sets skills_dir', () => {
    const cfg = loadGatewayConfig({ cwd, env: {} });
    expect(cfg.resources.skills_dir).toBe(path.join(INSTALLATION_ROOT, 'capabilities'));
    expect(fs.existsSync(path.join(cfg.resources.skills_dir, 'orders'))).toBe(true);
  });

  it("reads the installation's config/mcp.d when no layer sets registry_dir", () => {
    const file = configFile('mcp_server:\n  transport: http\n');
    const cfg = loadGatewayConfig({ configPath: file, cwd, env: {} });
    expect(cfg.upstreams.registry_dir).toBe(path.join(INSTALLATION_ROOT, 'config', 'mcp.d'));
  });

  it('keeps the default stdio ledger in $XDG_DATA_HOME/owlclaw', () => {
    const cfg = loadGatewayConfig({ cwd, env: { XDG_DATA_HOME: etc } });
    expect(cfg.transport).toBe('stdio');
    expect(cfg.ledger.sqlite_path).toBe(path.join(etc, 'owlclaw', 'ledger.db'));
  });

  it('falls back to ~/.local/share/owlclaw when XDG_DATA_HOME is unset or relative', () => {
    expect(userDataDir({ HOME: etc })).toBe(path.join(etc, '.local', 'share', 'owlclaw'));
    expect(userDataDir({ HOME: etc, XDG_DATA_HOME: 'rel' })).toBe(
      path.join(etc, '.local', 'share', 'owlclaw'),
    );
    const cfg = loadGatewayConfig({ cwd, env: { HOME: etc } });
    expect(cfg.ledger.sqlite_path).toBe(path.join(etc, '.local', 'share', 'owlclaw', 'ledger.db'));
  });

  it('leaves an in-memory SQLite ledger as it is', () => {
    const file = configFile("mcp_server:\n  ledger: { sqlite_path: ':memory:' }\n");
    expect(loadGatewayConfig({ configPath: file, cwd, env: {} }).ledger.sqlite_path).toBe(
      ':memory:',
    );
  });

  it('keeps the default http ledger in ./data of the working directory', () => {
    const cfg = loadGatewayConfig({
      cwd,
      env: { XDG_DATA_HOME: etc },
      overrides: { transport: 'http' },
    });
    expect(cfg.ledger.sqlite_path).toBe(path.join(cwd, 'data', 'ledger.db'));
  });
});
