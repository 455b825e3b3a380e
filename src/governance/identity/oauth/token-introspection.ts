import { createHash } from 'node:crypto';
import { OAuthConfig } from '../../../config/gateway-config';
import { readSecretFile } from '../../../upstreams/secret-file.reader';
import { AuthorizationServerUnavailable, fetchJsonObject } from './bounded-fetch';
import { IssuerKeySets } from './issuer-key-sets';
import { OAUTH_LIMITS } from './oauth.limits';
import { audienceIncludes, identityFromClaims } from './token-claims';
import { TokenRefused, VerifiedToken } from './verified-token';

interface CachedAnswer {
  /** Undefined: the server said the token is not active. */
  token?: VerifiedToken;
  refusal?: string;
  /** Epoch milliseconds after which the answer is asked again. */
  until: number;
}

/**
 * RFC 7662 introspection for opaque access tokens: the authorization server
 * says whether a token is active and what it carries; the answer is then
 * held to the same rules as a JWT (audience, issuer, expiry). Answers are
 * cached under the token's SHA-256 (never the token) until it expires,
 * refusals for `inactiveCacheMs`, at most `cache_max_entries` in all.
 */
export class TokenIntrospection {
  private readonly cache = new Map<string, CachedAnswer>();
  private readonly issuer: string;
  private readonly credentials: string;
  private readonly audiences: readonly string[];

  constructor(
    private readonly config: OAuthConfig,
    private readonly issuers: IssuerKeySets,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    const settings = config.introspection;
    this.issuer = settings.issuer || config.issuers[0];
    this.audiences = [config.resource, ...config.additional_audiences];
    const secret = resolveSecret(settings.client_secret_ref, env);
    // RFC 6749 section 2.3.1: both parts are form-encoded before Basic encoding.
    this.credentials = Buffer.from(
      `${encodeURIComponent(settings.client_id)}:${encodeURIComponent(secret)}`,
    ).toString('base64');
  }

  async verify(token: string): Promise<VerifiedToken> {
    const key = createHash('sha256').update(token).digest('base64url');
    const cached = this.cache.get(key);
    if (cached && cached.until > Date.now()) return answer(cached);
    const fresh = await this.ask(token);
    this.remember(key, fresh);
    return answer(fresh);
  }

  private async ask(token: string): Promise<CachedAnswer> {
    const metadata = await this.issuers.metadata(this.issuer);
    if (!metadata.introspectionEndpoint) {
      throw new AuthorizationServerUnavailable(
        `issuer ${this.issuer} publishes no introspection_endpoint`,
      );
    }
    const claims = await fetchJsonObject(metadata.introspectionEndpoint, {
      method: 'POST',
      headers: {
        authorization: `Basic ${this.credentials}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
    });
    const refused = (refusal: string): CachedAnswer => ({
      refusal,
      until: Date.now() + OAUTH_LIMITS.inactiveCacheMs,
    });
    if (claims.active !== true) return refused('the token is not active');
    if (claims.iss !== undefined && claims.iss !== this.issuer) {
      return refused(`the token's issuer is not ${this.issuer}`);
    }
    if (!this.audiences.some((audience) => audienceIncludes(claims.aud, audience))) {
      return refused(`the token is not for this resource (aud must name ${this.config.resource})`);
    }
    const now = Date.now() / 1000;
    if (typeof claims.nbf === 'number' && claims.nbf > now + this.config.clock_tolerance_seconds) {
      return refused('the token is not valid yet (nbf)');
    }
    try {
      const verified = identityFromClaims(claims, this.issuer, this.config);
      return { token: verified, until: verified.expiresAt * 1000 };
    } catch (err) {
      if (err instanceof TokenRefused) return refused(err.description);
      throw err;
    }
  }

  private remember(key: string, entry: CachedAnswer): void {
    if (this.cache.size >= this.config.introspection.cache_max_entries) {
      // Maps iterate in insertion order: the first key is the oldest answer.
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.delete(key);
    this.cache.set(key, entry);
  }
}

function answer(entry: CachedAnswer): VerifiedToken {
  if (entry.token && entry.until > Date.now()) return entry.token;
  throw new TokenRefused(entry.refusal ?? 'the token has expired');
}

function resolveSecret(ref: string, env: NodeJS.ProcessEnv): string {
  if (ref.startsWith('env:')) {
    const value = env[ref.slice(4)];
    if (!value)
      throw new Error(
        `auth.oauth.introspection.client_secret_ref: ${ref.slice(4)} is not set or empty`,
      );
    return value;
  }
  const read = readSecretFile(ref.slice(5));
  if (!read.ok) throw new Error(`auth.oauth.introspection.client_secret_ref: ${read.problem}`);
  return read.secret;
}
