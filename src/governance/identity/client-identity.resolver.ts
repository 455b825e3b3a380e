import { Inject, Injectable } from '@nestjs/common';
import { IncomingMessage } from 'node:http';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { AuthConfig, GatewayConfig } from '../../config/gateway-config';
import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';
import { resolveHttpClientId } from '../../transport/http/http-client-id';
import { ApiKeys } from './api-keys';
import { IdentityRefused } from './identity-refused.error';

const CLIENT_ID_HEADER = 'x-mcp-client-id';
/** The stdio process's API key in `auth.mode: api_key`. */
export const STDIO_API_KEY_ENV = 'MCP_API_KEY';
/** Names the stdio process's client in `auth.mode: none`. */
export const STDIO_CLIENT_ID_ENV = 'MCP_CLIENT_ID';
export const DEFAULT_STDIO_CLIENT_ID = 'stdio-client';
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Who a request comes from, for quotas, visibility and the ledger. HTTP,
 * `auth.mode` api_key: the Bearer key's client; none: X-MCP-Client-ID, else
 * the peer address. A caller that cannot be identified is refused with an
 * IdentityRefused, which the HTTP transport answers.
 */
@Injectable()
export class ClientIdentityResolver {
  private readonly mode: AuthConfig['mode'];

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly keys: ApiKeys,
  ) {
    this.mode = config.auth.mode;
  }

  /** The caller's client id; throws IdentityRefused (400/401). */
  identify(req: IncomingMessage): string {
    if (this.mode === 'none') {
      try {
        return resolveHttpClientId(req);
      } catch (err) {
        const message = err instanceof GatewayError ? err.message : 'Invalid X-MCP-Client-ID';
        throw new IdentityRefused(400, ErrorCode.InvalidRequest, message);
      }
    }
    const key = BEARER.exec(req.headers.authorization ?? '')?.[1];
    const clientId = key === undefined ? undefined : this.keys.clientFor(key);
    if (clientId !== undefined) return clientId;
    throw new IdentityRefused(
      401,
      ErrorCode.GovernanceDenied,
      key === undefined
        ? 'Unauthorized: send Authorization: Bearer <API key>'
        : 'Unauthorized: the API key is not valid',
    );
  }

  /**
   * Whether a request may use a session, whose identity was bound at
   * initialize; throws IdentityRefused (400/401/403) when not. Without an API
   * key (mode none) a request that names no client rides on the session id alone.
   */
  checkSessionOwner(req: IncomingMessage, sessionClientId: string): void {
    if (this.mode === 'none' && req.headers[CLIENT_ID_HEADER] === undefined) return;
    if (this.identify(req) === sessionClientId) return;
    throw new IdentityRefused(
      403,
      ErrorCode.GovernanceDenied,
      'Forbidden: this session belongs to another client',
    );
  }

  /**
   * Who a stdio process serves. Mode none: MCP_CLIENT_ID, else stdio-client.
   * Mode api_key: the client of MCP_API_KEY; a MCP_CLIENT_ID beside it must
   * name that same client. Throws (the process refuses to start) otherwise.
   */
  identifyProcess(env: NodeJS.ProcessEnv): string {
    const named = env[STDIO_CLIENT_ID_ENV] || undefined;
    if (this.mode === 'none') return named ?? DEFAULT_STDIO_CLIENT_ID;
    const key = env[STDIO_API_KEY_ENV];
    if (!key) {
      throw new Error(
        `auth.mode is api_key: set ${STDIO_API_KEY_ENV} to an API key listed in auth.api_keys`,
      );
    }
    const clientId = this.keys.clientFor(key);
    if (clientId === undefined) {
      throw new Error(`auth.mode is api_key: ${STDIO_API_KEY_ENV} is not a valid API key`);
    }
    if (named !== undefined && named !== clientId) {
      throw new Error(
        `auth.mode is api_key: ${STDIO_CLIENT_ID_ENV} "${named}" is not the client of ${STDIO_API_KEY_ENV}; unset it or name that client`,
      );
    }
    return clientId;
  }
}
