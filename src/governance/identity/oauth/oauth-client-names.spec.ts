import { DEFAULT_CONFIG } from '../../../config/config.defaults';
import { AuthConfig, OAuthConfig } from '../../../config/gateway-config';
import { OAuthClientNames } from './oauth-client-names';
import { TokenRefused } from './verified-token';

const A = 'https://idp-a.example.com';
const B = 'https://idp-b.example.com/realms/b';
const KEY = 'a'.repeat(64);

function names(oauth: Partial<OAuthConfig>, apiKeyClients: string[] = []): OAuthClientNames {
  const auth: AuthConfig = {
    ...DEFAULT_CONFIG.auth,
    mode: 'oauth_or_api_key',
    api_keys: apiKeyClients.map((client) => `${client}:${KEY}`),
    oauth: { ...DEFAULT_CONFIG.auth.oauth, ...oauth },
  };
  return new OAuthClientNames(auth);
}

describe('OAuthClientNames', () => {
  it('keeps bare client ids when one issuer is trusted (names as before)', () => {
    expect(names({ issuers: [A] }).nameOf(A, 'internal-ops')).toBe('internal-ops');
  });

  it('qualifies unmapped clients with their issuer when several are trusted', () => {
    const both = names({ issuers: [A, B] });
    expect(both.nameOf(A, 'internal-ops')).toBe(`${A}#internal-ops`);
    expect(both.nameOf(B, 'internal-ops')).toBe(`${B}#internal-ops`);
  });

  it("uses an issuer's namespace, also for a single issuer", () => {
    const one = names({ issuers: [B], issuer_clients: { [B]: { namespace: 'b', clients: {} } } });
    expect(one.nameOf(B, 'internal-ops')).toBe('b#internal-ops');
  });

  it('takes explicit mappings as given, so two issuers may share a client on purpose', () => {
    const mapped = names({
      issuers: [A, B],
      issuer_clients: {
        [A]: { namespace: '', clients: { 'internal-ops': 'internal-ops' } },
        [B]: { namespace: 'b', clients: { 'ops-b': 'internal-ops' } },
      },
    });
    expect(mapped.nameOf(A, 'internal-ops')).toBe('internal-ops');
    expect(mapped.nameOf(B, 'ops-b')).toBe('internal-ops');
    expect(mapped.nameOf(B, 'internal-ops')).toBe('b#internal-ops');
  });

  it('refuses a bare client id that an API-key client or a mapping owns', () => {
    const one = names(
      { issuers: [A], issuer_clients: { [A]: { namespace: '', clients: { x: 'partner' } } } },
      ['svc-billing'],
    );
    for (const owned of ['svc-billing', 'partner']) {
      expect(() => one.nameOf(A, owned)).toThrow(TokenRefused);
      expect(() => one.nameOf(A, owned)).toThrow(/map it in auth.oauth.issuer_clients/);
    }
    expect(one.nameOf(A, 'x')).toBe('partner');
  });

  it('never names a client after a prototype member', () => {
    expect(names({ issuers: [A, B] }).nameOf(A, 'constructor')).toBe(`${A}#constructor`);
    expect(names({ issuers: [A] }).nameOf('toString', 'c')).toBe('c');
  });
});
