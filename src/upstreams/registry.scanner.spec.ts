import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanRegistry } from './registry.scanner';
import { RegistryDirFixture, stdioYaml } from './testing/registry-dir.fixture';
import { REGISTRY_LIMITS } from './upstream-registry.limits';

let fixture: RegistryDirFixture;

beforeEach(() => {
  fixture = new RegistryDirFixture();
});

afterEach(() => fixture.remove());

function scan(env: NodeJS.ProcessEnv = {}, strict = true) {
  return scanRegistry(fixture.dir, env, { strict });
}

describe('scanRegistry: directory rules', () => {
  it('treats a missing directory as an empty registry, not an error', () => {
    const registry = scanRegistry(path.join(fixture.root, 'absent'), {}, { strict: true });
    expect(registry).toMatchObject({ servers: [], rejected: [], warnings: [] });
  });

  it('refuses a registry path that is a file', () => {
    const file = fixture.writeOutside('not-a-dir', '');
    const registry = scanRegistry(file, {}, { strict: true });
    expect(registry.rejected).toEqual([
      expect.objectContaining({ file, reason: 'is not a directory' }),
    ]);
  });

  it('reads .yaml, .yml, .json and .toml files and warns about other files', () => {
    fixture.write('a.yaml', stdioYaml('a'));
    fixture.write('b.yml', stdioYaml('b'));
    fixture.write(
      'c.json',
      JSON.stringify({ version: 1, server_id: 'c', transport: 'stdio', stdio: { command: 'x' } }),
    );
    fixture.write(
      'd.toml',
      'version = 1\nserver_id = "d"\ntransport = "stdio"\n[stdio]\ncommand = "x"\n',
    );
    fixture.write('README.md', '# notes');
    const registry = scan();
    expect(registry.servers.map((s) => s.server_id)).toEqual(['a', 'b', 'c', 'd']);
    expect(registry.warnings).toEqual(['README.md: ignored (not .yaml, .yml, .json, .toml)']);
  });

  it('ignores hidden and temporary files without a word', () => {
    fixture.write('.hidden.yaml', stdioYaml('hidden'));
    fixture.write('backup.yaml~', stdioYaml('tilde'));
    fixture.write('edit.yaml.swp', stdioYaml('swp'));
    fixture.write('partial.yaml.tmp', stdioYaml('tmp'));
    fixture.write('real.yaml', stdioYaml('real'));
    const registry = scan();
    expect(registry.servers.map((s) => s.server_id)).toEqual(['real']);
    expect(registry.rejected).toEqual([]);
    expect(registry.warnings).toEqual([]);
  });

  it('does not descend into subdirectories', () => {
    fixture.write('nested/inner.yaml', stdioYaml('inner'));
    fixture.write('top.yaml', stdioYaml('top'));
    expect(scan().servers.map((s) => s.server_id)).toEqual(['top']);
  });

  it('refuses a symbolic link, naming why, even to a valid file inside the directory', () => {
    const target = fixture.write('real.yaml', stdioYaml('real'));
    fs.symlinkSync(
      fixture.writeOutside('outside.yaml', stdioYaml('outside')),
      path.join(fixture.dir, 'link.yaml'),
    );
    fs.symlinkSync(target, path.join(fixture.dir, 'inner-link.yaml'));
    const registry = scan();
    expect(registry.servers.map((s) => s.server_id)).toEqual(['real']);
    expect(registry.rejected.map((r) => [r.file, r.reason])).toEqual([
      ['inner-link.yaml', expect.stringContaining('is a symbolic link')],
      ['link.yaml', expect.stringContaining('is a symbolic link')],
    ]);
  });

  it('refuses a file larger than 64 KiB, naming the limit', () => {
    fixture.write(
      'big.yaml',
      stdioYaml('big', `display_name: "${'x'.repeat(REGISTRY_LIMITS.maxFileBytes)}"`),
    );
    const [rejected] = scan().rejected;
    expect(rejected.file).toBe('big.yaml');
    expect(rejected.reason).toBe('is larger than the limit of 65536 bytes (64 KiB)');
  });

  it('refuses a directory with more entries than the limit, loading nothing from it', () => {
    for (let i = 0; i <= REGISTRY_LIMITS.maxFiles; i++) fixture.write(`s${i}.yaml`, '');
    const registry = scan();
    expect(registry.servers).toEqual([]);
    expect(registry.rejected).toEqual([
      expect.objectContaining({
        file: fixture.dir,
        reason: expect.stringContaining(`more than ${REGISTRY_LIMITS.maxFiles} entries`),
      }),
    ]);
  });
});

describe('scanRegistry: servers across files', () => {
  it('lets the last file by name win a duplicate server_id, with a warning naming both files', () => {
    fixture.write('10-fs.yaml', stdioYaml('fs', 'display_name: First'));
    fixture.write('20-fs.yaml', stdioYaml('fs', 'display_name: Second'));
    const registry = scan();
    expect(registry.servers).toHaveLength(1);
    expect(registry.servers[0]).toMatchObject({ display_name: 'Second', file: '20-fs.yaml' });
    expect(registry.warnings).toEqual([
      'server_id "fs" is declared by 10-fs.yaml and 20-fs.yaml; 20-fs.yaml wins (the last by file name)',
    ]);
    expect(registry.rejected).toEqual([]);
  });

  it('keeps an earlier valid file when a later one for the same server_id is rejected', () => {
    fixture.write('10-fs.yaml', stdioYaml('fs'));
    fixture.write('20-fs.yaml', stdioYaml('fs', 'budgets: { max_concurrency: 0 }'));
    const registry = scan();
    expect(registry.servers.map((s) => s.file)).toEqual(['10-fs.yaml']);
    expect(registry.rejected.map((r) => r.file)).toEqual(['20-fs.yaml']);
  });

  it('rejects the later of two servers that claim one tool_namespace, naming both', () => {
    fixture.write('a.yaml', stdioYaml('alpha', 'tool_namespace: shared'));
    fixture.write('b.yaml', stdioYaml('beta', 'tool_namespace: shared'));
    const registry = scan();
    expect(registry.servers.map((s) => s.server_id)).toEqual(['alpha']);
    expect(registry.rejected).toEqual([
      {
        file: 'b.yaml',
        serverId: 'beta',
        reason:
          'tool_namespace: "shared" is already used by server "alpha" (a.yaml); server "beta" (b.yaml) is not loaded',
        problems: [expect.any(String)],
      },
    ]);
  });

  it('counts a default namespace (the server_id) in collisions', () => {
    fixture.write('a.yaml', stdioYaml('alpha', 'tool_namespace: beta'));
    fixture.write('b.yaml', stdioYaml('beta'));
    expect(scan().rejected.map((r) => r.serverId)).toEqual(['beta']);
  });
});

describe('scanRegistry: formats', () => {
  const yaml = [
    'version: 1',
    'server_id: github',
    'display_name: GitHub',
    'transport: streamable_http',
    'http:',
    '  url: https://api.example.com/mcp',
    '  headers: { X-Team: platform }',
    "allowed_tools: ['search_*', get_issue]",
    'denied_tools: [delete_*]',
    'approval_policy: { default: never, tools: { "create_*": always } }',
    'budgets: { tool_timeout_ms: 8000, max_concurrency: 4, max_tool_output_bytes: 65536 }',
    'cost: { default: 0.5, tools: { "search_*": 2 } }',
    'relay: { resources: true, prompts: false }',
    'required: true',
    'warm: true',
    '',
  ].join('\n');
  const json = JSON.stringify({
    version: 1,
    server_id: 'github',
    display_name: 'GitHub',
    transport: 'streamable_http',
    http: { url: 'https://api.example.com/mcp', headers: { 'X-Team': 'platform' } },
    allowed_tools: ['search_*', 'get_issue'],
    denied_tools: ['delete_*'],
    approval_policy: { default: 'never', tools: { 'create_*': 'always' } },
    budgets: { tool_timeout_ms: 8000, max_concurrency: 4, max_tool_output_bytes: 65536 },
    cost: { default: 0.5, tools: { 'search_*': 2 } },
    relay: { resources: true, prompts: false },
    required: true,
    warm: true,
  });
  const toml = [
    'version = 1',
    'server_id = "github"',
    'display_name = "GitHub"',
    'transport = "streamable_http"',
    'allowed_tools = ["search_*", "get_issue"]',
    'denied_tools = ["delete_*"]',
    'required = true',
    'warm = true',
    '',
    '[http]',
    'url = "https://api.example.com/mcp"',
    'headers = { X-Team = "platform" }',
    '',
    '[approval_policy]',
    'default = "never"',
    'tools = { "create_*" = "always" }',
    '',
    '[budgets]',
    'tool_timeout_ms = 8000',
    'max_concurrency = 4',
    'max_tool_output_bytes = 65536',
    '',
    '[cost]',
    'default = 0.5',
    'tools = { "search_*" = 2 }',
    '',
    '[relay]',
    'resources = true',
    'prompts = false',
    '',
  ].join('\n');

  it('loads the same record from YAML, JSON and TOML, with the same revision', () => {
    const loaded = ['github.yaml', 'github.json', 'github.toml'].map((name, i) => {
      const single = new RegistryDirFixture();
      try {
        single.write(name, [yaml, json, toml][i]);
        return scanRegistry(single.dir, {}, { strict: true });
      } finally {
        single.remove();
      }
    });
    for (const registry of loaded) {
      expect(registry.rejected).toEqual([]);
      expect(registry.servers).toHaveLength(1);
    }
    const [fromYaml, fromJson, fromToml] = loaded.map((r) => ({ ...r.servers[0], file: '' }));
    expect(fromJson).toEqual(fromYaml);
    expect(fromToml).toEqual(fromYaml);
    expect(new Set(loaded.map((r) => r.revision)).size).toBe(1);
    expect(fromYaml).toMatchObject({
      tool_namespace: 'github',
      approval_policy: { default: 'never', tools: { 'create_*': 'always' } },
      cost: { default: 0.5, tools: { 'search_*': 2 } },
    });
  });

  it('reports a syntax error with its line and column, without quoting the text', () => {
    fixture.write('broken.json', '{\n  "version": 1,\n  "token": "hunter2" oops\n}');
    fixture.write('broken.toml', 'version = 1\ntoken = "hunter2" oops\n');
    fixture.write('broken.yaml', 'version: 1\ntoken: "hunter2\n');
    const reasons = Object.fromEntries(scan().rejected.map((r) => [r.file, r.reason]));
    expect(reasons['broken.json']).toMatch(/^JSON syntax error at line 3, column \d+$/);
    expect(reasons['broken.toml']).toMatch(/^TOML syntax error at line 2, column \d+/);
    expect(reasons['broken.yaml']).toMatch(/^YAML syntax error at line \d+, column \d+/);
    for (const reason of Object.values(reasons)) expect(reason).not.toContain('hunter2');
  });
});

describe('scanRegistry: revision', () => {
  it('is stable across scans of unchanged files and changes when a record changes', () => {
    fixture.write('a.yaml', stdioYaml('a'));
    fixture.write('b.yaml', stdioYaml('b'));
    const first = scan();
    const again = scan();
    expect(again.revision).toBe(first.revision);
    expect(again.revision).toMatch(/^[0-9a-f]{16}$/);

    fixture.write('b.yaml', stdioYaml('b', 'warm: true'));
    expect(scan().revision).not.toBe(first.revision);
  });

  it('ignores key order and file names, and sees a changed value behind a reference', () => {
    fixture.write('a.yaml', stdioYaml('a', 'required: true', 'warm: true'));
    const before = scan({}).revision;
    fs.rmSync(path.join(fixture.dir, 'a.yaml'));
    fixture.write('renamed.yaml', stdioYaml('a', 'warm: true', 'required: true'));
    expect(scan({}).revision).toBe(before);

    fixture.write('renamed.yaml', stdioYaml('a', '  env: { MODE: "${ENV:MODE}" }'));
    expect(scan({ MODE: 'one' }).revision).not.toBe(scan({ MODE: 'two' }).revision);
  });
});
