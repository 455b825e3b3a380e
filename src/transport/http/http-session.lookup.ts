import { Injectable } from '@nestjs/common';
import { IncomingMessage, ServerResponse } from 'node:http';
import { isSupportedVersion, SUPPORTED_PROTOCOL_VERSIONS } from '../../json-rpc/protocol-version';
import { GatewayError } from '../../errors/gateway.error';
import { ClientIdentityResolver } from '../../governance/identity/client-identity.resolver';
import { JsonRpcId } from '../../json-rpc/json-rpc.types';
import { McpSession, SessionTransport } from '../../session/mcp-session';
import { SessionRegistry } from '../../session/session.registry';
import { headerValue, PROTOCOL_VERSION_HEADER, SESSION_HEADER } from './http-headers';
import { sendHttpError } from './http-reply';
import { identifyOrRefuse, ownsSessionOrRefuse } from './identity-refusal';
import { sendLimitRefusal } from './limit-refusal';

/**
 * The Streamable HTTP header rules, in one place: MCP-Protocol-Version must be
 * a supported revision (400), a session id is required after initialize (400)
 * and must name a live session of the right transport (404). New sessions are
 * opened here too, so that a full `limits.sessions_*` is refused alike on every route.
 */
@Injectable()
export class HttpSessionLookup {
  constructor(
    private readonly sessions: SessionRegistry,
    private readonly identity: ClientIdentityResolver,
  ) {}

  /** False (and the 400 written) when the version header names an unsupported revision. */
  checkProtocolVersion(req: IncomingMessage, res: ServerResponse): boolean {
    const version = headerValue(req, PROTOCOL_VERSION_HEADER);
    if (version === undefined || isSupportedVersion(version)) return true;
    sendHttpError(
      res,
      400,
      `Bad Request: unsupported MCP-Protocol-Version "${version}" (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    );
    return false;
  }

  /**
   * A new session bound to the caller's identity, or undefined with the
   * refusal written: 400/401 for the identity, 429/503 when the client or the
   * gateway holds `limits.sessions_*` sessions (the body echoes `requestId`).
   */
  open(
    req: IncomingMessage,
    res: ServerResponse,
    transport: SessionTransport,
    requestId: JsonRpcId | null = null,
  ): McpSession | undefined {
    const clientId = identifyOrRefuse(this.identity, req, res);
    if (clientId === undefined) return undefined;
    try {
      return this.sessions.create(transport, clientId);
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      sendLimitRefusal(res, err, requestId);
      return undefined;
    }
  }

  /**
   * The session named by the request, or undefined with 400/404 (or, when the
   * request is not from the client the session was opened for, 401/403) already written.
   */
  require(
    req: IncomingMessage,
    res: ServerResponse,
    transport: SessionTransport,
    sessionId = headerValue(req, SESSION_HEADER),
  ): McpSession | undefined {
    if (!sessionId) {
      sendHttpError(res, 400, 'Bad Request: Mcp-Session-Id header is required after initialize');
      return undefined;
    }
    const session = this.sessions.get(sessionId);
    if (!session || session.transport !== transport) {
      sendHttpError(
        res,
        404,
        `Session not found: ${sessionId} (it expired or was deleted; initialize again)`,
      );
      return undefined;
    }
    if (!ownsSessionOrRefuse(this.identity, req, res, session.clientId)) return undefined;
    session.touch();
    return session;
  }
}
