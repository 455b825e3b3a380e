import * as os from 'node:os';
import { loadGatewayConfig } from './config.loader';
import { ConfigValidationError } from './config-validation.error';

/** The auth.oauth section as the loader reads it (the cross-key rules are in config-oauth.check). */
function loadOAuth(oauth: Record<string, unknown>) {
  return loadGatewayConfig({
    cwd: os.tmpdir(),
    env: {},
    overrides: {
      auth: {
        mode: 'oauth',
        oauth: {
          resource: 'https://mcp.example.com/mcp',
          issuers: ['https://idp.example.com'],
          ...oauth,
        },
      },
    },
  }).auth.oauth;
}

describe('auth.oauth schema', () => {
  it('fills the lists a scope grant leaves out with [] (their @Default)', () => {
    const oauth = loadOAuth({ scopes: { 'orders.read': { tools: ['orders_*'] } } });
    expect(oauth.scopes).toEqual({
      'orders.read': { tools: ['orders_*'], resources: [], prompts: [] },
    });
  });

  it('still refuses a grant list of the wrong type', () => {
    expect(() => loadOAuth({ scopes: { 'orders.read': { tools: 'orders_*' } } })).toThrow(
      ConfigValidationError,
    );
  });

  it.each([['none'], ['HS256']])('refuses the algorithm %s', (alg) => {
    expect(() => loadOAuth({ algorithms: ['RS256', alg] })).toThrow(/algorithms/);
  });

  it('reads issuer_clients as plain records, the namespace defaulting to the issuer URL ("")', () => {
    const oauth = loadOAuth({
      issuer_clients: { 'https://idp.example.com': { clients: { 'internal-ops': 'ops' } } },
    });
    expect(oauth.issuer_clients).toEqual({
      'https://idp.example.com': { namespace: '', clients: { 'internal-ops': 'ops' } },
    });
  });

  it('refuses an issuer_clients entry whose clients is not a mapping', () => {
    expect(() =>
      loadOAuth({ issuer_clients: { 'https://idp.example.com': { clients: ['ops'] } } }),
    ).toThrow(/issuer_clients/);
  });
});
