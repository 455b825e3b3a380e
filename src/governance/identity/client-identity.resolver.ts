import { Inject, Injectable } from '@nestjs/common';
import { IncomingMessage } from 'node:http';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { acceptsOAuth } from '../../config/config-oauth.check';
import { AuthConfig, GatewayConfig } from '../../config/gateway-config';
import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';
import { resolveHttpClientId } from '../../transport/http/http-client-id';
import { ApiKeys } from './api-keys';
import { CallerIdentity, sessionOwnerOf } from './caller-identity';
import { IdentityRefused } from './identity-refused.error';
import { AccessTokenVerifier } from './oauth/access-token.verifier';
import {
  bearerChallenge,
  ChallengeParams,
  protectedResourceMetadataUrl,
} from './oauth/bearer-challenge';
import { TokenRefused } from './oauth/verified-token';

const CLIENT_ID_HEADER = 'x-mcp-client-id';
/** The stdio process's API key in `auth.mode: api_key` (and oauth_or_api_key). */
export const STDIO_API_KEY_ENV = 'MCP_API_KEY';
/** Names the stdio process's client in `auth.mode: none`. */
export const STDIO_CLIENT_ID_ENV = 'MCP_CLIENT_ID';
export const DEFAULT_STDIO_CLIENT_ID = 'stdio-client';
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const API_KEY_REALM = 'Bearer realm="owlclaw-mcp-gateway"';

/**
 * Who a request comes from, for quotas, visibility and the ledger. HTTP,
 * `auth.mode` none: X-MCP-Client-ID, else the peer address; api_key: the
 * Bearer key's client; oauth: the validated access token's client claim;
 * oauth_or_api_key: a listed API key, else an access token. A caller that
 * cannot be identified is refused with an IdentityRefused carrying the
 * `WWW-Authenticate` challenge, which the HTTP transport answers.
 */
@Injectable()
export class ClientIdentityResolver {
  private readonly mode: AuthConfig['mode'];
  private readonly requiredScopes: readonly string[];
  /** RFC 9728 metadata URL, named in every OAuth challenge. */
  readonly metadataUrl?: string;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly keys: ApiKeys,
    private readonly tokens: AccessTokenVerifier,
  ) {
    this.mode = config.auth.mode;
    this.requiredScopes = config.auth.oauth.required_scopes;
    if (acceptsOAuth(this.mode)) {
      this.metadataUrl = protectedResourceMetadataUrl(config.auth.oauth.resource);
    }
  }

  /**
   * The caller's identity: at once from a header or an API key, when
   * verified for an access token. Throws (or rejects with) IdentityRefused
   * (400/401/403/503).
   */
  identify(req: IncomingMessage): CallerIdentity | Promise<CallerIdentity> {
    if (this.mode === 'none') return { clientId: headerClientId(req) };
    const credential = BEARER.exec(req.headers.authorization ?? '')?.[1];
    if (credential === undefined) {
      throw this.unauthorized(
        `Unauthorized: send Authorization: Bearer <${this.metadataUrl ? 'access token' : 'API key'}>`,
      );
    }
    if (this.mode !== 'oauth') {
      const clientId = this.keys.clientFor(credential);
      if (clientId !== undefined) return { clientId };
      if (this.mode === 'api_key')
        throw this.unauthorized('Unauthorized: the API key is not valid');
    }
    return this.identifyToken(credential);
  }

  /**
   * The caller of a request that names a session, or undefined when it may
   * ride on the session id alone (mode none, no X-MCP-Client-ID header).
   */
  identifyForSession(
    req: IncomingMessage,
  ): CallerIdentity | undefined | Promise<CallerIdentity | undefined> {
    if (this.mode === 'none' && req.headers[CLIENT_ID_HEADER] === undefined) return undefined;
    return this.identify(req);
  }

  /** Throws IdentityRefused (403) unless the caller is the identity the session was opened by. */
  checkSessionOwner(caller: CallerIdentity | undefined, sessionOwner: string): void {
    if (caller === undefined || sessionOwnerOf(caller) === sessionOwner) return;
    throw new IdentityRefused(
      403,
      ErrorCode.GovernanceDenied,
      'Forbidden: this session belongs to another client',
    );
  }

  /**
   * A 403 for a token that lacks a scope a request needs, so that the client
   * may step up (RFC 6750 section 3.1). The challenge's `scope` is everything
   * the new token needs: the required scopes with the missing one, since
   * clients ask for exactly what it names.
   */
  insufficientScope(missing: string, message: string): IdentityRefused {
    const scope = [...new Set([...this.requiredScopes, missing])].join(' ');
    return new IdentityRefused(
      403,
      ErrorCode.GovernanceDenied,
      `Forbidden: ${message}`,
      this.challenge({ error: 'insufficient_scope', description: message, scope }),
    );
  }

  /**
   * Who a stdio process serves. Mode none: MCP_CLIENT_ID, else stdio-client.
   * Modes with API keys: the client of MCP_API_KEY; a MCP_CLIENT_ID beside it
   * must name that same client. Mode oauth alone: there is no OAuth flow over
   * stdio (the MCP specification has stdio take credentials from the
   * environment), so the process refuses to start. Throws otherwise too.
   */
  identifyProcess(env: NodeJS.ProcessEnv): string {
    const named = env[STDIO_CLIENT_ID_ENV] || undefined;
    if (this.mode === 'none') return named ?? DEFAULT_STDIO_CLIENT_ID;
    if (this.mode === 'oauth') {
      throw new Error(
        'auth.mode is oauth: a stdio process has no OAuth flow; use auth.mode oauth_or_api_key and set MCP_API_KEY to a key listed in auth.api_keys',
      );
    }
    const key = env[STDIO_API_KEY_ENV];
    if (!key) {
      throw new Error(
        `auth.mode is ${this.mode}: set ${STDIO_API_KEY_ENV} to an API key listed in auth.api_keys`,
      );
    }
    const clientId = this.keys.clientFor(key);
    if (clientId === undefined) {
      throw new Error(`auth.mode is ${this.mode}: ${STDIO_API_KEY_ENV} is not a valid API key`);
    }
    if (named !== undefined && named !== clientId) {
      throw new Error(
        `auth.mode is ${this.mode}: ${STDIO_CLIENT_ID_ENV} "${named}" is not the client of ${STDIO_API_KEY_ENV}; unset it or name that client`,
      );
    }
    return clientId;
  }

  private async identifyToken(token: string): Promise<CallerIdentity> {
    let verified;
    try {
      verified = await this.tokens.verify(token);
    } catch (err) {
      if (!(err instanceof TokenRefused)) throw err;
      if (err.unavailable) {
        throw new IdentityRefused(
          503,
          ErrorCode.GovernanceDenied,
          `Service unavailable: ${err.description}`,
          this.challenge(),
        );
      }
      throw new IdentityRefused(
        401,
        ErrorCode.GovernanceDenied,
        `Unauthorized: ${err.description}`,
        this.challenge({ error: 'invalid_token', description: err.description }),
      );
    }
    const missing = this.requiredScopes.filter((scope) => !verified.scopes.has(scope));
    if (missing.length > 0) {
      throw this.insufficientScope(
        missing[0],
        `this gateway needs the scopes ${this.requiredScopes.join(' ')}`,
      );
    }
    return { clientId: verified.clientId, token: verified };
  }

  private unauthorized(message: string): IdentityRefused {
    return new IdentityRefused(401, ErrorCode.GovernanceDenied, message, this.challenge());
  }

  /** The challenge of this mode: RFC 9728's resource_metadata with OAuth, the API-key realm without. */
  private challenge(params: ChallengeParams = {}): string {
    if (!this.metadataUrl) return API_KEY_REALM;
    const scope = params.scope ?? (this.requiredScopes.join(' ') || undefined);
    return bearerChallenge(this.metadataUrl, { ...params, scope });
  }
}

function headerClientId(req: IncomingMessage): string {
  try {
    return resolveHttpClientId(req);
  } catch (err) {
    const message = err instanceof GatewayError ? err.message : 'Invalid X-MCP-Client-ID';
    throw new IdentityRefused(400, ErrorCode.InvalidRequest, message);
  }
}
