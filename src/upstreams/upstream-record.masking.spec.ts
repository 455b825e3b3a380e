import { scanRegistry } from './registry.scanner';
import { RegistryDirFixture } from './testing/registry-dir.fixture';
import { MASK, masked, maskedUrl } from './upstream-record.masking';

let fixture: RegistryDirFixture;

beforeEach(() => {
  fixture = new RegistryDirFixture();
});

afterEach(() => fixture.remove());

const SECRETS = {
  STDIO_TOKEN: 'stdio-secret-1',
  PASSED_THROUGH: 'stdio-secret-2',
  HEADER_TOKEN: 'header-secret-3',
  URL_PASSWORD: 'url-secret-4',
  QUERY_KEY: 'query-secret-5',
  AUTH_TOKEN: 'auth-secret-6',
  OAUTH_SECRET: 'oauth-secret-9',
};

describe('masked', () => {
  it('leaves no secret value anywhere in the JSON of the records', () => {
    fixture.write(
      'local.yaml',
      [
        'version: 1',
        'server_id: local',
        'transport: stdio',
        'stdio:',
        '  command: node',
        '  env: { TOKEN: "${ENV:STDIO_TOKEN}", LITERAL: "inline-secret-7" }',
        '  env_from: [PASSED_THROUGH]',
        '',
      ].join('\n'),
    );
    fixture.write(
      'remote.yaml',
      [
        'version: 1',
        'server_id: remote',
        'transport: streamable_http',
        'http:',
        '  url: "https://user:${ENV:URL_PASSWORD}@mcp.example.com/mcp?key=${ENV:QUERY_KEY}#frag-secret-8"',
        '  headers: { X-Api-Key: "${ENV:HEADER_TOKEN}" }',
        '  auth_ref: env:AUTH_TOKEN',
        '',
      ].join('\n'),
    );
    fixture.write(
      'oauth.yaml',
      [
        'version: 1',
        'server_id: oauth',
        'transport: http_sse_legacy',
        'http:',
        '  url: https://legacy.example.com/sse',
        '  oauth: { client_id: gateway, client_secret_ref: env:OAUTH_SECRET, scope: mcp }',
        '',
      ].join('\n'),
    );
    const registry = scanRegistry(fixture.dir, SECRETS, { strict: true });
    expect(registry.rejected).toEqual([]);
    const raw = JSON.stringify(registry.servers);
    const shown = JSON.stringify(registry.servers.map(masked));
    const secrets = [...Object.values(SECRETS), 'inline-secret-7', 'frag-secret-8'];
    for (const secret of secrets) {
      expect(raw).toContain(secret);
      expect(shown).not.toContain(secret);
    }
    const remote = registry.servers.map(masked).find((s) => s.server_id === 'remote');
    expect(remote?.http).toEqual({
      url: `https://mcp.example.com/mcp?key=${MASK}#${MASK}`,
      headers: { 'X-Api-Key': MASK },
      auth_ref: 'env:AUTH_TOKEN',
      auth_secret: MASK,
    });
    const oauth = registry.servers.map(masked).find((s) => s.server_id === 'oauth');
    expect(oauth?.http?.oauth).toEqual({
      client_id: 'gateway',
      client_secret_ref: 'env:OAUTH_SECRET',
      client_secret: MASK,
      scope: 'mcp',
    });
    const local = registry.servers.map(masked).find((s) => s.server_id === 'local');
    expect(local?.stdio?.env).toEqual({ TOKEN: MASK, LITERAL: MASK, PASSED_THROUGH: MASK });
  });

  it('does not change the record it is given', () => {
    fixture.write(
      's.yaml',
      'version: 1\nserver_id: s\ntransport: stdio\nstdio: { command: x, env: { A: b } }\n',
    );
    const [record] = scanRegistry(fixture.dir, {}, { strict: true }).servers;
    masked(record);
    expect(record.stdio?.env).toEqual({ A: 'b' });
  });

  it('keeps a plain URL readable and hides one it cannot parse', () => {
    expect(maskedUrl('https://mcp.example.com/v1/mcp')).toBe('https://mcp.example.com/v1/mcp');
    expect(maskedUrl('not a url with a secret')).toBe(MASK);
  });
});
