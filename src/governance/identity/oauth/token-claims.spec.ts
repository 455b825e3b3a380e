import { DEFAULT_CONFIG } from '../../../config/config.defaults';
import { OAuthConfig } from '../../../config/gateway-config';
import { OAUTH_LIMITS } from './oauth.limits';
import { audienceIncludes, identityFromClaims } from './token-claims';
import { TokenRefused } from './verified-token';

const ISSUER = 'https://idp.example.com/realms/acme';
const NOW = Math.floor(Date.now() / 1000);
const EXP = NOW + 3600;

function config(clientIdClaim = ''): OAuthConfig {
  return { ...DEFAULT_CONFIG.auth.oauth, client_id_claim: clientIdClaim };
}

function refusalOf(claims: Record<string, unknown>, clientIdClaim = ''): string {
  try {
    identityFromClaims(claims, ISSUER, config(clientIdClaim));
  } catch (err) {
    if (err instanceof TokenRefused) return err.description;
    throw err;
  }
  throw new Error('the claims were accepted');
}

describe('identityFromClaims', () => {
  it('names the client by client_id, then azp, then sub', () => {
    const all = { client_id: 'cid', azp: 'party', sub: 'alice', exp: EXP };
    expect(identityFromClaims(all, ISSUER, config()).clientId).toBe('cid');
    expect(identityFromClaims({ ...all, client_id: undefined }, ISSUER, config()).clientId).toBe(
      'party',
    );
    expect(identityFromClaims({ sub: 'alice', exp: EXP }, ISSUER, config()).clientId).toBe('alice');
  });

  it('uses only the configured claim when one is set, without falling back', () => {
    const claims = { client_id: 'cid', preferred_username: 'ops-bot', sub: 'u1', exp: EXP };
    expect(identityFromClaims(claims, ISSUER, config('preferred_username')).clientId).toBe(
      'ops-bot',
    );
    expect(refusalOf({ client_id: 'cid', sub: 'u1', exp: EXP }, 'preferred_username')).toBe(
      'the token has no client claim (preferred_username)',
    );
  });

  it('refuses a token with no client claim at all, naming the claims it looked for', () => {
    expect(refusalOf({ exp: EXP })).toBe('the token has no client claim (client_id, azp, sub)');
  });

  it.each([
    ['empty', ''],
    ['a space', 'two words'],
    ['a newline', 'bot\nforged-ledger-line'],
    ['a quote', 'bot"x'],
    ['non-ASCII', 'bötchen'],
    ['too long', 'a'.repeat(129)],
    ['not a string', 42],
    ['a list', ['a', 'b']],
  ])('refuses a client id that is %s', (_what, value) => {
    expect(refusalOf({ client_id: value, sub: 'alice', exp: EXP })).toMatch(
      /^the token's client_id claim is not a usable client id/,
    );
  });

  it('takes the first claim that is present even when it is unusable (no silent fallback)', () => {
    expect(refusalOf({ client_id: 'bad id', azp: 'fine', exp: EXP })).toMatch(/client_id claim/);
  });

  it('accepts client ids of up to 128 letters, digits and ._:@/-', () => {
    const id = `svc.a_b:c@d/e-${'x'.repeat(114)}`;
    expect(id).toHaveLength(128);
    expect(identityFromClaims({ client_id: id, exp: EXP }, ISSUER, config()).clientId).toBe(id);
  });

  it('reads scopes from a space-separated scope, and from scp as a string or a list', () => {
    const scopesOf = (claims: Record<string, unknown>) => [
      ...identityFromClaims({ sub: 'alice', exp: EXP, ...claims }, ISSUER, config()).scopes,
    ];
    expect(scopesOf({ scope: 'mcp  orders.read ' })).toEqual(['mcp', 'orders.read']);
    expect(scopesOf({ scp: 'mcp orders.read' })).toEqual(['mcp', 'orders.read']);
    expect(scopesOf({ scp: ['mcp', 'orders.write', 7, ''] })).toEqual(['mcp', 'orders.write']);
    expect(scopesOf({ scope: 'mcp', scp: ['mcp', 'admin'] })).toEqual(['mcp', 'admin']);
    expect(scopesOf({})).toEqual([]);
    expect(scopesOf({ scope: 12 })).toEqual([]);
  });

  it('keeps sub and jti, cut to the claim limit', () => {
    const long = 's'.repeat(OAUTH_LIMITS.maxClaimChars + 50);
    const token = identityFromClaims(
      { client_id: 'cid', sub: long, jti: `j${long}`, exp: EXP },
      ISSUER,
      config(),
    );
    expect(token.subject).toBe(long.slice(0, OAUTH_LIMITS.maxClaimChars));
    expect(token.tokenId).toHaveLength(OAUTH_LIMITS.maxClaimChars);
    expect(token).toMatchObject({ issuer: ISSUER, clientId: 'cid', expiresAt: EXP });
  });

  it('acts for the client when there is no sub, and has no token id without jti', () => {
    const token = identityFromClaims({ client_id: 'cid', jti: '', exp: EXP }, ISSUER, config());
    expect(token.subject).toBe('cid');
    expect(token.tokenId).toBeUndefined();
  });

  it.each([
    ['missing', undefined],
    ['a string', String(EXP)],
    ['not finite', Infinity],
  ])('refuses a token whose exp is %s', (_what, exp) => {
    expect(refusalOf({ client_id: 'cid', exp })).toBe('the token has no expiry (exp)');
  });
});

describe('identityFromClaims: token lifetime bounds', () => {
  const { clock_tolerance_seconds: leeway, max_token_lifetime_seconds: lifetime } =
    DEFAULT_CONFIG.auth.oauth;
  const accept = (claims: Record<string, unknown>) =>
    identityFromClaims({ client_id: 'cid', ...claims }, ISSUER, config(), NOW).expiresAt;
  const refuse = (claims: Record<string, unknown>) => {
    try {
      identityFromClaims({ client_id: 'cid', ...claims }, ISSUER, config(), NOW);
    } catch (err) {
      if (err instanceof TokenRefused) return err.description;
      throw err;
    }
    throw new Error('the claims were accepted');
  };

  it('accepts iat up to the clock leeway ahead and exp up to the maximum lifetime ahead', () => {
    expect(accept({ iat: NOW + leeway, exp: NOW + lifetime + leeway })).toBe(
      NOW + lifetime + leeway,
    );
    expect(accept({ exp: EXP })).toBe(EXP);
  });

  it('refuses a token issued in the future, naming the leeway key', () => {
    expect(refuse({ iat: NOW + leeway + 1, exp: EXP })).toBe(
      `the token was issued in the future (iat beyond auth.oauth.clock_tolerance_seconds, ${leeway})`,
    );
  });

  it.each([
    ['a string', 'yesterday'],
    ['not finite', Infinity],
  ])('refuses an iat that is %s', (_what, iat) => {
    expect(refuse({ iat, exp: EXP })).toBe("the token's iat claim is not a number of seconds");
  });

  it.each([
    ['one second past the maximum lifetime', NOW + lifetime + leeway + 1],
    ['1e300', 1e300],
    ['the largest number', Number.MAX_VALUE],
  ])('refuses an exp %s, naming the lifetime key', (_what, exp) => {
    expect(refuse({ exp })).toBe(
      `the token expires further ahead than auth.oauth.max_token_lifetime_seconds (${lifetime})`,
    );
  });

  it('measures the lifetime against the configured maximum', () => {
    const short = { ...config(), max_token_lifetime_seconds: 300 };
    expect(() =>
      identityFromClaims({ client_id: 'cid', exp: NOW + 301 + leeway }, ISSUER, short, NOW),
    ).toThrow(/max_token_lifetime_seconds \(300\)/);
  });
});

describe('audienceIncludes', () => {
  const resource = 'https://mcp.example.com/mcp';

  it('matches a string aud exactly, or a list that contains the resource', () => {
    expect(audienceIncludes(resource, resource)).toBe(true);
    expect(audienceIncludes(['other', resource], resource)).toBe(true);
  });

  it('refuses no aud, another resource, a prefix and non-string forms', () => {
    expect(audienceIncludes(undefined, resource)).toBe(false);
    expect(audienceIncludes('https://mcp.example.com/mcp/extra', resource)).toBe(false);
    expect(audienceIncludes('https://mcp.example.com', resource)).toBe(false);
    expect(audienceIncludes([], resource)).toBe(false);
    expect(audienceIncludes({ [resource]: true }, resource)).toBe(false);
  });
});
