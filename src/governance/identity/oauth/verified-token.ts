/** Who an access token speaks for, as validated; the token itself is never kept. */
export interface VerifiedToken {
  issuer: string;
  /** `sub`; a token without one (some client-credentials tokens) acts for its client. */
  subject: string;
  /**
   * The client governance meters: the configured claim (else client_id, azp, sub),
   * named per issuer by OAuthClientNames once the token is verified.
   */
  clientId: string;
  /** `jti`, when the token has one. */
  tokenId?: string;
  scopes: ReadonlySet<string>;
  /** `exp`, epoch seconds. */
  expiresAt: number;
}

/**
 * A token the gateway will not accept. `description` goes to the client in
 * `error_description` and to the log; it never quotes the token. `unavailable`:
 * not the token's fault, the authorization server could not be reached (503).
 */
export class TokenRefused extends Error {
  constructor(
    readonly description: string,
    readonly unavailable = false,
  ) {
    super(description);
    this.name = 'TokenRefused';
  }
}
