import { DEFAULT_CONFIG } from './config.defaults';
import { acceptsOAuth, oauthConfigProblems } from './config-oauth.check';
import { AuthConfig, OAuthConfig } from './gateway-config';
import { render } from './config-problem';

type OAuthOverrides = Partial<Omit<OAuthConfig, 'introspection'>> & {
  introspection?: Partial<OAuthConfig['introspection']>;
};

const VALID: OAuthOverrides = {
  resource: 'https://mcp.example.com/mcp',
  issuers: ['https://idp.example.com/realms/acme'],
};

function problemsOf(mode: AuthConfig['mode'], oauth: OAuthOverrides = VALID): string[] {
  const defaults = DEFAULT_CONFIG.auth.oauth;
  const auth: AuthConfig = {
    ...DEFAULT_CONFIG.auth,
    mode,
    oauth: {
      ...defaults,
      ...oauth,
      introspection: { ...defaults.introspection, ...oauth.introspection },
    },
  };
  return oauthConfigProblems(auth, (path) => `test:${path.join('.')}`).map(render);
}

describe('oauthConfigProblems', () => {
  it('accepts a resource and an issuer over https in both OAuth modes', () => {
    expect(problemsOf('oauth')).toEqual([]);
    expect(problemsOf('oauth_or_api_key')).toEqual([]);
  });

  it('does not look at auth.oauth in the modes without OAuth', () => {
    expect(problemsOf('none', { resource: 'ftp://nope', issuers: [] })).toEqual([]);
    expect(problemsOf('api_key', {})).toEqual([]);
    expect(acceptsOAuth('api_key')).toBe(false);
    expect(acceptsOAuth('oauth_or_api_key')).toBe(true);
  });

  it('requires the resource and at least one issuer, saying which key and where from', () => {
    expect(problemsOf('oauth', {})).toEqual([
      'mcp_server.auth.oauth.resource: is required when mcp_server.auth.mode is oauth (from test:auth.oauth.resource)',
      'mcp_server.auth.oauth.issuers: is required when mcp_server.auth.mode is oauth (at least one) (from test:auth.oauth.issuers)',
    ]);
  });

  it('refuses plain http except on a loopback host, for the resource and each issuer', () => {
    expect(
      problemsOf('oauth', {
        resource: 'http://mcp.example.com/mcp',
        issuers: ['https://ok.example.com', 'http://idp.example.com', 'http://10.0.0.1:8080'],
      }),
    ).toEqual([
      'mcp_server.auth.oauth.resource: must be an https:// URL (http:// only on a loopback host) (from test:auth.oauth.resource)',
      'mcp_server.auth.oauth.issuers.1: must be an https:// URL (http:// only on a loopback host) (from test:auth.oauth.issuers.1)',
      'mcp_server.auth.oauth.issuers.2: must be an https:// URL (http:// only on a loopback host) (from test:auth.oauth.issuers.2)',
    ]);
    expect(
      problemsOf('oauth', {
        resource: 'http://127.0.0.1:3000/mcp',
        issuers: ['http://localhost:8080/realms/x', 'http://[::1]:9000'],
      }),
    ).toEqual([]);
  });

  it('refuses a relative resource, one with a fragment, and an issuer that is not a URL', () => {
    expect(problemsOf('oauth', { ...VALID, resource: '/mcp' })).toEqual([
      'mcp_server.auth.oauth.resource: must be an absolute URL (from test:auth.oauth.resource)',
    ]);
    expect(problemsOf('oauth', { ...VALID, resource: 'https://mcp.example.com/mcp#x' })).toEqual([
      'mcp_server.auth.oauth.resource: must not have a fragment (RFC 8707) (from test:auth.oauth.resource)',
    ]);
    expect(problemsOf('oauth', { ...VALID, issuers: ['idp.example.com'] })).toEqual([
      'mcp_server.auth.oauth.issuers.0: must be an absolute URL (from test:auth.oauth.issuers.0)',
    ]);
  });

  it('requires client_id and client_secret_ref when introspection is enabled', () => {
    expect(problemsOf('oauth', { ...VALID, introspection: { enabled: true } })).toEqual([
      'mcp_server.auth.oauth.introspection.client_id: is required when mcp_server.auth.oauth.introspection.enabled is true (from test:auth.oauth.introspection.client_id)',
      'mcp_server.auth.oauth.introspection.client_secret_ref: is required when mcp_server.auth.oauth.introspection.enabled is true (from test:auth.oauth.introspection.client_secret_ref)',
    ]);
    expect(
      problemsOf('oauth', {
        ...VALID,
        introspection: { enabled: true, client_id: 'gw', client_secret_ref: 'env:GW_SECRET' },
      }),
    ).toEqual([]);
    // Off, the same empty settings are fine.
    expect(problemsOf('oauth', { ...VALID, introspection: { enabled: false } })).toEqual([]);
  });

  it('requires an introspection issuer to be one of the trusted issuers', () => {
    expect(
      problemsOf('oauth', {
        ...VALID,
        introspection: {
          enabled: true,
          client_id: 'gw',
          client_secret_ref: 'env:GW_SECRET',
          issuer: 'https://elsewhere.example.com',
        },
      }),
    ).toEqual([
      'mcp_server.auth.oauth.introspection.issuer: must be one of mcp_server.auth.oauth.issuers (from test:auth.oauth.introspection.issuer)',
    ]);
  });
});

describe('oauthConfigProblems: issuer_clients', () => {
  const A = 'https://idp-a.example.com';
  const B = 'https://idp-b.example.com';
  const withIssuers = (issuer_clients: OAuthConfig['issuer_clients'], issuers = [A, B]) =>
    problemsOf('oauth', { ...VALID, issuers, issuer_clients });

  it('accepts namespaces, explicit mappings and two issuers mapping onto one name', () => {
    expect(
      withIssuers({
        [A]: { namespace: 'a', clients: { 'internal-ops': 'ops' } },
        [B]: { namespace: '', clients: { 'ops-b': 'ops' } },
      }),
    ).toEqual([]);
  });

  it('refuses a repeated issuer, an issuer with #, and an entry for an issuer not trusted', () => {
    expect(problemsOf('oauth', { ...VALID, issuers: [A, A, 'https://c.example.com/#x'] })).toEqual([
      `mcp_server.auth.oauth.issuers.1: repeats ${A} (from test:auth.oauth.issuers.1)`,
      'mcp_server.auth.oauth.issuers.2: must not contain # (an issuer has no fragment) (from test:auth.oauth.issuers.2)',
    ]);
    expect(withIssuers({ 'https://c.example.com': { namespace: '', clients: {} } }, [A])).toEqual([
      'mcp_server.auth.oauth.issuer_clients.https://c.example.com: must be one of mcp_server.auth.oauth.issuers (from test:auth.oauth.issuer_clients.https://c.example.com)',
    ]);
  });

  it('refuses two issuers with one namespace, even when one is the default (its URL)', () => {
    expect(
      withIssuers({
        [A]: { namespace: 'idp', clients: {} },
        [B]: { namespace: 'idp', clients: {} },
      }),
    ).toEqual([
      `mcp_server.auth.oauth.issuer_clients.${B}.namespace: is also the namespace of ${A}: each issuer's clients need their own (from test:auth.oauth.issuer_clients.${B}.namespace)`,
    ]);
    expect(withIssuers({ [B]: { namespace: A, clients: {} } })).toHaveLength(1);
  });

  it('refuses a namespace, a client id or a mapped name that is not a usable client name', () => {
    expect(
      withIssuers({
        [A]: { namespace: 'a#b', clients: { 'bad id': 'x', good: 'b#ops' } },
      }).map((line) => line.replace(/ \(from .*$/, '')),
    ).toEqual([
      `mcp_server.auth.oauth.issuer_clients.${A}.namespace: must be 1-128 characters of letters, digits and ._:@/-`,
      `mcp_server.auth.oauth.issuer_clients.${A}.clients.bad id: is not a usable client id: keys must be 1-128 characters of letters, digits and ._:@/-`,
      `mcp_server.auth.oauth.issuer_clients.${A}.clients.good: must be 1-128 characters of letters, digits and ._:@/-`,
    ]);
  });
});
