import type { JWK } from 'jose';

/** What a test asks of the authorization server; plain JSON, handed to the child process. */
export interface AuthorizationServerOptions {
  /** Private signing JWKs, each with `kid` and `alg`; the first key's `alg` signs JWT access tokens. */
  keys: JWK[];
  /** Resource URI -> the scopes it offers and the form of its access tokens (`aud` = the URI). */
  resources: Record<string, ResourceServerOptions>;
  /**
   * The resource used when a client names none. Unset: such requests get the provider's own
   * behaviour, an opaque token with no `aud`, which is what "no audience" tests need.
   */
  defaultResource?: string;
  /** Pre-registered confidential clients (client credentials, introspection). */
  clients?: ConfidentialClientOptions[];
  /** The account the headless login signs in when the request has no `login_hint`. */
  defaultAccount?: string;
  accessTokenTtlSeconds?: number;
}

export interface ResourceServerOptions {
  /** Space-separated scopes this resource offers. */
  scope: string;
  /** `jwt` (RFC 9068, the default) or `opaque` (only introspection can read it). */
  format?: 'jwt' | 'opaque';
}

export interface ConfidentialClientOptions {
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes the client may obtain; unset = every resource scope. */
  scope?: string;
}
