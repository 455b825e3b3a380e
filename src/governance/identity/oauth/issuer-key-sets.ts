import { createRemoteJWKSet, customFetch, JWTVerifyGetKey } from 'jose';
import { OAuthConfig } from '../../../config/gateway-config';
import {
  AuthorizationServerMetadata,
  discoverAuthorizationServer,
} from './authorization-server-metadata';
import { boundedFetch } from './bounded-fetch';
import { OAUTH_LIMITS } from './oauth.limits';

interface IssuerEntry {
  /** Settles once; replaced after a failure once `discoveryRetryMs` has passed. */
  discovery: Promise<AuthorizationServerMetadata>;
  failedAt?: number;
  keys?: JWTVerifyGetKey;
}

/**
 * The configured issuers' metadata and signing keys, found on first use and
 * kept: each issuer's JWKS is jose's remote key set, refetched when older
 * than `jwks_max_age_seconds` or when a token names an unknown `kid`, but
 * never more often than `jwks_refresh_cooldown_seconds` (so forged kids cannot
 * make the gateway hammer the authorization server). Only configured issuers
 * are ever fetched: a token's own `iss` never picks a URL.
 */
export class IssuerKeySets {
  private readonly entries = new Map<string, IssuerEntry>();

  constructor(private readonly config: OAuthConfig) {}

  isTrusted(issuer: string): boolean {
    return this.config.issuers.includes(issuer);
  }

  /** The metadata of a trusted issuer; AuthorizationServerUnavailable while it cannot be read. */
  metadata(issuer: string): Promise<AuthorizationServerMetadata> {
    return this.entry(issuer).discovery;
  }

  /** The key resolver for jwtVerify of a trusted issuer's tokens. */
  async keys(issuer: string): Promise<JWTVerifyGetKey> {
    const entry = this.entry(issuer);
    const metadata = await entry.discovery;
    entry.keys ??= createRemoteJWKSet(new URL(metadata.jwksUri), {
      timeoutDuration: OAUTH_LIMITS.fetchTimeoutMs,
      cooldownDuration: this.config.jwks_refresh_cooldown_seconds * 1000,
      cacheMaxAge: this.config.jwks_max_age_seconds * 1000,
      [customFetch]: boundedFetch,
    });
    return entry.keys;
  }

  private entry(issuer: string): IssuerEntry {
    if (!this.isTrusted(issuer)) {
      throw new Error(`issuer ${issuer} is not configured`);
    }
    const known = this.entries.get(issuer);
    if (
      known &&
      (known.failedAt === undefined || Date.now() - known.failedAt < OAUTH_LIMITS.discoveryRetryMs)
    ) {
      return known;
    }
    const entry: IssuerEntry = { discovery: discoverAuthorizationServer(issuer) };
    entry.discovery.catch((err: unknown) => {
      entry.failedAt = Date.now();
      return err;
    });
    this.entries.set(issuer, entry);
    return entry;
  }
}
