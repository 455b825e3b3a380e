/** Bounds on what the gateway reads while validating access tokens (hostile input is normal input). */
export const OAUTH_LIMITS = {
  /**
   * A presented token longer than this is refused unread (real JWTs are 1-4 KiB). Kept under
   * Node's 16 KiB header limit, so that the client gets the 401 challenge rather than a bare 431.
   */
  maxTokenChars: 12 * 1024,
  /** Authorization server metadata, a JWKS, an introspection answer. */
  maxDocumentBytes: 256 * 1024,
  /** Each request to an authorization server. */
  fetchTimeoutMs: 5_000,
  /** After a failed metadata discovery, the issuer is not asked again for this long. */
  discoveryRetryMs: 10_000,
  /** Inactive introspection answers are remembered this long, so junk tokens cost one request each per period. */
  inactiveCacheMs: 30_000,
  /** `sub` and `jti` longer than this are cut (the ledger keeps them). */
  maxClaimChars: 256,
} as const;
