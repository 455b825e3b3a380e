import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanRegistry } from './registry.scanner';
import { httpYaml, RegistryDirFixture, stdioYaml } from './testing/registry-dir.fixture';

let fixture: RegistryDirFixture;

beforeEach(() => {
  fixture = new RegistryDirFixture();
});

afterEach(() => fixture.remove());

function scanOne(text: string, env: NodeJS.ProcessEnv = {}) {
  fixture.write('server.yaml', text);
  return scanRegistry(fixture.dir, env, { strict: true });
}

describe('references in registry values', () => {
  it('resolves ${ENV:VAR} and ${ENV:VAR:-default} in stdio.env', () => {
    const text = stdioYaml(
      'fs',
      '  env:',
      '    TOKEN: "${ENV:FS_TOKEN}"',
      '    MODE: "${ENV:FS_MODE:-read-only}"',
      '    GREETING: "hello ${ENV:WHO:-world}, from ${ENV:FS_TOKEN}"',
    );
    const { servers } = scanOne(text, { FS_TOKEN: 't0k3n' });
    expect(servers[0].stdio?.env).toEqual({
      TOKEN: 't0k3n',
      MODE: 'read-only',
      GREETING: 'hello world, from t0k3n',
    });
    expect(scanOne(text, { FS_TOKEN: 'x', FS_MODE: 'write' }).servers[0].stdio?.env.MODE).toBe(
      'write',
    );
  });

  it('does not load a server whose reference names an unset variable, saying which', () => {
    const registry = scanOne(stdioYaml('fs', '  env: { TOKEN: "${ENV:FS_TOKEN}" }'));
    expect(registry.servers).toEqual([]);
    expect(registry.rejected).toEqual([
      {
        file: 'server.yaml',
        serverId: 'fs',
        reason: 'stdio.env.TOKEN: ${ENV:FS_TOKEN} is not set (no default given)',
        problems: ['stdio.env.TOKEN: ${ENV:FS_TOKEN} is not set (no default given)'],
      },
    ]);
  });

  it('refuses a malformed reference', () => {
    const registry = scanOne(
      stdioYaml('fs', '  env: { TOKEN: "${ENV:1BAD}", OTHER: "${ENV:OPEN" }'),
    );
    expect(registry.rejected[0].problems).toEqual([
      'stdio.env.TOKEN: holds a malformed reference; write ${ENV:NAME} or ${ENV:NAME:-default}',
      'stdio.env.OTHER: holds a malformed reference; write ${ENV:NAME} or ${ENV:NAME:-default}',
    ]);
  });

  it('resolves references in http.url and http.headers', () => {
    const text = httpYaml('gh', '  headers: { Authorization: "Bearer ${ENV:GH_TOKEN}" }').replace(
      'https://mcp.example.com/mcp',
      '"${ENV:GH_URL:-https://api.example.com}/mcp"',
    );
    const [server] = scanOne(text, { GH_TOKEN: 'ghp_123' }).servers;
    expect(server.http).toEqual({
      url: 'https://api.example.com/mcp',
      headers: { Authorization: 'Bearer ghp_123' },
    });
    expect(scanOne(text, {}).rejected[0].problems).toEqual([
      'http.headers.Authorization: ${ENV:GH_TOKEN} is not set (no default given)',
    ]);
  });

  it('refuses a url that is not http(s) once resolved, and a header value with a line break', () => {
    const text = httpYaml('gh', '  headers: { X-Team: "${ENV:TEAM}" }').replace(
      'https://mcp.example.com/mcp',
      '"${ENV:GH_URL}"',
    );
    const registry = scanOne(text, { GH_URL: 'file:///etc/passwd', TEAM: 'a\r\nX-Evil: 1' });
    expect(registry.rejected[0].problems).toEqual([
      'http.url: must be an http:// or https:// URL once references are resolved',
      'http.headers.X-Team: is not a valid HTTP header value: the character at index 1 is not allowed (line breaks, control characters and characters above U+00FF are refused)',
    ]);
  });

  it('passes env_from variables through, and does not load when one is unset', () => {
    const text = stdioYaml('fs', '  env_from: [API_TOKEN, HOME_DIR]');
    const [server] = scanOne(text, { API_TOKEN: 'abc', HOME_DIR: '/home/x', OTHER: 'no' }).servers;
    expect(server.stdio).toMatchObject({
      env: { API_TOKEN: 'abc', HOME_DIR: '/home/x' },
      env_from: ['API_TOKEN', 'HOME_DIR'],
    });
    expect(scanOne(text, { API_TOKEN: 'abc' }).rejected[0].problems).toEqual([
      'stdio.env_from: environment variable HOME_DIR is not set',
    ]);
  });

  it('refuses a variable named in both env and env_from', () => {
    const text = stdioYaml('fs', '  env: { API_TOKEN: x }', '  env_from: [API_TOKEN]');
    expect(scanOne(text, { API_TOKEN: 'abc' }).rejected[0].problems).toEqual([
      'stdio.env_from: API_TOKEN is also set in stdio.env; name it in one place',
    ]);
  });

  it('resolves a relative stdio.cwd against the registry directory', () => {
    const [server] = scanOne(stdioYaml('fs', '  cwd: ../work')).servers;
    expect(server.stdio?.cwd).toBe(path.join(fixture.root, 'work'));
  });
});

describe('auth_ref', () => {
  it('reads the secret from an environment variable', () => {
    const [server] = scanOne(httpYaml('gh', '  auth_ref: env:GH_TOKEN'), {
      GH_TOKEN: 'ghp_x',
    }).servers;
    expect(server.http).toMatchObject({ auth_ref: 'env:GH_TOKEN', auth_secret: 'ghp_x' });
  });

  it('does not load when the variable is unset or empty', () => {
    for (const env of [{}, { GH_TOKEN: '' }]) {
      expect(scanOne(httpYaml('gh', '  auth_ref: env:GH_TOKEN'), env).rejected[0].problems).toEqual(
        ['http.auth_ref: environment variable GH_TOKEN is not set or empty'],
      );
    }
  });

  it('reads the secret from a file relative to the registry directory, trimmed', () => {
    fixture.writeOutside('gh.token', 'file-secret\n');
    const [server] = scanOne(httpYaml('gh', '  auth_ref: file:../gh.token')).servers;
    expect(server.http).toMatchObject({ auth_ref: 'file:../gh.token', auth_secret: 'file-secret' });
  });

  it('does not load when the secret file is missing or empty, naming the file', () => {
    const missing = path.join(fixture.root, 'absent.token');
    expect(
      scanOne(httpYaml('gh', '  auth_ref: file:../absent.token')).rejected[0].problems,
    ).toEqual([`http.auth_ref: secret file ${missing} does not exist`]);
    const empty = fixture.writeOutside('empty.token', '\n');
    expect(scanOne(httpYaml('gh', '  auth_ref: file:../empty.token')).rejected[0].problems).toEqual(
      [`http.auth_ref: secret file ${empty} is empty`],
    );
  });

  it('refuses auth_ref beside an Authorization header', () => {
    const text = httpYaml(
      'gh',
      '  headers: { authorization: "Bearer x" }',
      '  auth_ref: env:GH_TOKEN',
    );
    expect(scanOne(text, { GH_TOKEN: 't' }).rejected[0].problems).toEqual([
      'http.auth_ref: http.headers already sets Authorization; use one of them',
    ]);
  });

  it('refuses an auth_ref of another form', () => {
    expect(scanOne(httpYaml('gh', '  auth_ref: vault:gh')).rejected[0].problems).toEqual([
      'http.auth_ref: must be env:NAME or file:PATH',
    ]);
  });

  it('follows a symbolic link to a secret file (mounted secrets are often links)', () => {
    const real = fixture.writeOutside('real.token', 'linked-secret');
    fs.symlinkSync(real, path.join(fixture.root, 'link.token'));
    const [server] = scanOne(httpYaml('gh', '  auth_ref: file:../link.token')).servers;
    expect(server.http?.auth_secret).toBe('linked-secret');
  });
});

describe('http.oauth', () => {
  const OAUTH =
    '  oauth: { client_id: gateway, client_secret_ref: env:CC_SECRET, scope: "mcp tools" }';

  it('reads the client secret from an environment variable and keeps the rest as written', () => {
    const [server] = scanOne(httpYaml('gh', OAUTH), { CC_SECRET: 's3cret' }).servers;
    expect(server.http).toEqual({
      url: 'https://mcp.example.com/mcp',
      headers: {},
      oauth: {
        client_id: 'gateway',
        client_secret_ref: 'env:CC_SECRET',
        client_secret: 's3cret',
        scope: 'mcp tools',
      },
    });
  });

  it('reads the client secret from a file and keeps the issuer it is bound to', () => {
    fixture.writeOutside('cc.secret', 'file-secret\n');
    const text = httpYaml(
      'gh',
      '  oauth:',
      '    client_id: gateway',
      '    client_secret_ref: file:../cc.secret',
      '    issuer: https://idp.example.com/realms/acme',
    );
    const [server] = scanOne(text).servers;
    expect(server.http?.oauth).toEqual({
      client_id: 'gateway',
      client_secret_ref: 'file:../cc.secret',
      client_secret: 'file-secret',
      issuer: 'https://idp.example.com/realms/acme',
    });
  });

  it('does not load when the secret is missing, naming the key and the variable', () => {
    expect(scanOne(httpYaml('gh', OAUTH)).rejected[0].problems).toEqual([
      'http.oauth.client_secret_ref: environment variable CC_SECRET is not set or empty',
    ]);
  });

  it('refuses oauth beside auth_ref or an Authorization header', () => {
    const env = { CC_SECRET: 's', GH_TOKEN: 't' };
    expect(
      scanOne(httpYaml('gh', OAUTH, '  auth_ref: env:GH_TOKEN'), env).rejected[0].problems,
    ).toEqual(['http.oauth: http.auth_ref is also set; use one of them']);
    const header = httpYaml('gh', OAUTH, '  headers: { Authorization: "Bearer x" }');
    expect(scanOne(header, env).rejected[0].problems).toEqual([
      'http.oauth: http.headers already sets Authorization; use one of them',
    ]);
  });

  it('names every key that is missing or malformed', () => {
    const text = httpYaml(
      'gh',
      '  oauth: { client_secret_ref: vault:x, scope: "a  b", issuer: "ftp://idp", extra: 1 }',
    );
    expect(scanOne(text).rejected[0].problems).toEqual(
      expect.arrayContaining([
        'http.oauth.client_id: is required',
        'http.oauth.client_secret_ref: must be env:NAME or file:PATH',
        'http.oauth.scope: must be scope names separated by single spaces',
        expect.stringMatching(/^http\.oauth\.extra: /),
      ]),
    );
    const badIssuer = httpYaml(
      'gh',
      '  oauth: { client_id: g, client_secret_ref: env:CC_SECRET, issuer: "ftp://idp" }',
    );
    expect(scanOne(badIssuer, { CC_SECRET: 's' }).rejected[0].problems).toEqual([
      'http.oauth.issuer: must be an http:// or https:// URL',
    ]);
  });
});
