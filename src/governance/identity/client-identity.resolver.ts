import { Inject, Injectable, Logger } from '@nestjs/common';
import { IncomingMessage, ServerResponse } from 'node:http';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { AuthConfig, GatewayConfig } from '../../config/gateway-config';
import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';
import { failure } from '../../json-rpc/json-rpc.responses';
import { resolveHttpClientId } from '../../transport/http/http-client-id';
import { sendJson } from '../../transport/http/http-reply';
import { ApiKeys } from './api-keys';

const CLIENT_ID_HEADER = 'x-mcp-client-id';
/** The stdio process's API key in `auth.mode: api_key`. */
export const STDIO_API_KEY_ENV = 'MCP_API_KEY';
/** Names the stdio process's client in `auth.mode: none`. */
export const STDIO_CLIENT_ID_ENV = 'MCP_CLIENT_ID';
export const DEFAULT_STDIO_CLIENT_ID = 'stdio-client';
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const REALM = 'Bearer realm="owlclaw-mcp-gateway"';

interface Refusal {
  status: 400 | 401 | 403;
  message: string;
  code: ErrorCode;
}

type Resolution = { clientId: string } | { refusal: Refusal };

/**
 * Who an HTTP request comes from, for quotas, visibility and the ledger.
 * `auth.mode` api_key: the Bearer key's client (401 when missing or wrong);
 * none: X-MCP-Client-ID, else the peer address. Refusals are written as a
 * JSON-RPC error body with the HTTP status, like every transport refusal.
 */
@Injectable()
export class ClientIdentityResolver {
  private readonly logger = new Logger('ClientIdentity');
  private readonly mode: AuthConfig['mode'];

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly keys: ApiKeys,
  ) {
    this.mode = config.auth.mode;
  }

  /** The caller's client id, or undefined with the refusal (400/401) already written. */
  identify(req: IncomingMessage, res: ServerResponse): string | undefined {
    const resolution = this.resolve(req);
    if ('refusal' in resolution) return this.refuse(req, res, resolution.refusal);
    return resolution.clientId;
  }

  /**
   * Whether a request may use a session, whose identity was bound at
   * initialize; false with 400/401/403 already written. Without an API key
   * (mode none) a request that names no client rides on the session id alone.
   */
  checkSessionOwner(req: IncomingMessage, res: ServerResponse, sessionClientId: string): boolean {
    if (this.mode === 'none' && req.headers[CLIENT_ID_HEADER] === undefined) return true;
    const clientId = this.identify(req, res);
    if (clientId === undefined) return false;
    if (clientId === sessionClientId) return true;
    this.refuse(req, res, {
      status: 403,
      code: ErrorCode.GovernanceDenied,
      message: 'Forbidden: this session belongs to another client',
    });
    return false;
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

  private resolve(req: IncomingMessage): Resolution {
    if (this.mode === 'none') {
      try {
        return { clientId: resolveHttpClientId(req) };
      } catch (err) {
        const message = err instanceof GatewayError ? err.message : 'Invalid X-MCP-Client-ID';
        return { refusal: { status: 400, code: ErrorCode.InvalidRequest, message } };
      }
    }
    const key = BEARER.exec(req.headers.authorization ?? '')?.[1];
    const clientId = key === undefined ? undefined : this.keys.clientFor(key);
    if (clientId !== undefined) return { clientId };
    return {
      refusal: {
        status: 401,
        code: ErrorCode.GovernanceDenied,
        message:
          key === undefined
            ? 'Unauthorized: send Authorization: Bearer <API key>'
            : 'Unauthorized: the API key is not valid',
      },
    };
  }

  private refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal): undefined {
    this.logger.warn({
      msg: 'request refused',
      status: refusal.status,
      path: (req.url ?? '').split('?', 1)[0],
      reason: refusal.message,
    });
    if (refusal.status === 401) res.setHeader('WWW-Authenticate', REALM);
    const data: Record<string, unknown> = { retryable: false, http_status: refusal.status };
    if (refusal.code === ErrorCode.GovernanceDenied) data.reason = 'forbidden';
    sendJson(res, refusal.status, failure(null, refusal.code, refusal.message, data));
    return undefined;
  }
}
