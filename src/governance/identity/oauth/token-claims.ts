import { OAuthConfig } from '../../../config/gateway-config';
import { OAUTH_LIMITS } from './oauth.limits';
import { TokenRefused, VerifiedToken } from './verified-token';

/** The same characters X-MCP-Client-ID and API key entries allow, so a claim cannot forge a ledger key. */
const CLIENT_ID_PATTERN = /^[A-Za-z0-9._:@/-]{1,128}$/;
const FALLBACK_CLIENT_CLAIMS = ['client_id', 'azp', 'sub'] as const;

/**
 * The identity in a validated token's claims (a JWT's payload or an
 * introspection answer). Scopes come from `scope` (RFC 8693/9068, a
 * space-separated string) or `scp` (Entra ID and others, a string or list).
 * `now` is epoch seconds.
 */
export function identityFromClaims(
  claims: Record<string, unknown>,
  issuer: string,
  config: OAuthConfig,
  now = Date.now() / 1000,
): VerifiedToken {
  const clientId = clientIdOf(claims, config.client_id_claim);
  const subject = cut(typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : clientId);
  const exp = lifetimeChecked(claims, config, now);
  return {
    issuer,
    subject,
    clientId,
    tokenId: typeof claims.jti === 'string' && claims.jti !== '' ? cut(claims.jti) : undefined,
    scopes: scopesOf(claims),
    expiresAt: exp,
  };
}

/**
 * `exp`, once it and `iat` are within bounds: a token issued in the future or
 * valid for longer than `max_token_lifetime_seconds` from now would outlive any
 * revocation or key rotation, so it is refused rather than trusted until then.
 */
function lifetimeChecked(
  claims: Record<string, unknown>,
  config: OAuthConfig,
  now: number,
): number {
  const { exp, iat } = claims;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) {
    throw new TokenRefused('the token has no expiry (exp)');
  }
  const tolerance = config.clock_tolerance_seconds;
  if (iat !== undefined && (typeof iat !== 'number' || !Number.isFinite(iat))) {
    throw new TokenRefused("the token's iat claim is not a number of seconds");
  }
  if (iat !== undefined && iat > now + tolerance) {
    throw new TokenRefused(
      `the token was issued in the future (iat beyond auth.oauth.clock_tolerance_seconds, ${tolerance})`,
    );
  }
  const max = config.max_token_lifetime_seconds;
  if (exp > now + max + tolerance) {
    throw new TokenRefused(
      `the token expires further ahead than auth.oauth.max_token_lifetime_seconds (${max})`,
    );
  }
  return exp;
}

/** Whether `aud` (a string or a list) names the resource. */
export function audienceIncludes(aud: unknown, resource: string): boolean {
  if (typeof aud === 'string') return aud === resource;
  return Array.isArray(aud) && aud.includes(resource);
}

function clientIdOf(claims: Record<string, unknown>, configured: string): string {
  const names = configured === '' ? FALLBACK_CLIENT_CLAIMS : [configured];
  const name = names.find((claim) => claims[claim] !== undefined);
  const value = name === undefined ? undefined : claims[name];
  if (typeof value === 'string' && CLIENT_ID_PATTERN.test(value)) return value;
  const which = names.join(', ');
  throw new TokenRefused(
    value === undefined
      ? `the token has no client claim (${which})`
      : `the token's ${name} claim is not a usable client id (1-128 characters of letters, digits and ._:@/-)`,
  );
}

function scopesOf(claims: Record<string, unknown>): ReadonlySet<string> {
  const scopes = new Set<string>();
  for (const value of [claims.scope, claims.scp]) {
    const items = typeof value === 'string' ? value.split(' ') : Array.isArray(value) ? value : [];
    for (const item of items) if (typeof item === 'string' && item !== '') scopes.add(item);
  }
  return scopes;
}

function cut(value: string): string {
  return value.length <= OAUTH_LIMITS.maxClaimChars
    ? value
    : value.slice(0, OAUTH_LIMITS.maxClaimChars);
}
