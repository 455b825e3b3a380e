import { Injectable } from '@nestjs/common';
import { IncomingMessage, ServerResponse } from 'node:http';
import { isThenable } from '../../common/is-thenable';
import { isSupportedVersion, SUPPORTED_PROTOCOL_VERSIONS } from '../../json-rpc/protocol-version';
import { GatewayError } from '../../errors/gateway.error';
import { CallerIdentity, sessionOwnerOf } from '../../governance/identity/caller-identity';
import { ClientIdentityResolver } from '../../governance/identity/client-identity.resolver';
import { IdentityRefused } from '../../governance/identity/identity-refused.error';
import { JsonRpcId } from '../../json-rpc/json-rpc.types';
import { McpSession, SessionTransport } from '../../session/mcp-session';
import { SessionRegistry } from '../../session/session.registry';
import { SessionStoreUnavailable } from '../../session/shared/shared-session.store';
import { headerValue, PROTOCOL_VERSION_HEADER, SESSION_HEADER } from './http-headers';
import { sendHttpError } from './http-reply';
import { identifyOrRefuse, sendIdentityRefusal } from './identity-refusal';
import { sendLimitRefusal } from './limit-refusal';

/** A request's session and its sender (undefined: mode none, riding on the session id). */
export interface SessionRequest {
  session: McpSession;
  caller: CallerIdentity | undefined;
}

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
   * refusal written: 400/401/403/503 for the identity, 429/503 when the client
   * or the gateway holds `limits.sessions_*` sessions (the body echoes `requestId`).
   */
  async open(
    req: IncomingMessage,
    res: ServerResponse,
    transport: SessionTransport,
    requestId: JsonRpcId | null = null,
  ): Promise<SessionRequest | undefined> {
    const caller = await identifyOrRefuse(this.identity, req, res);
    if (caller === undefined) return undefined;
    try {
      const session = this.sessions.create(transport, caller.clientId, {
        owner: sessionOwnerOf(caller),
      });
      return { session, caller };
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      sendLimitRefusal(res, err, requestId);
      return undefined;
    }
  }

  /**
   * The session named by the request and who sent it, or undefined with the
   * refusal already written: at once when the caller needs no token check and
   * the session is held here. The caller is identified first (400/401/503), so
   * that nothing about sessions is told to a caller without credentials; then
   * 400/404 for the session id, 403 when it is another identity's session.
   */
  require(
    req: IncomingMessage,
    res: ServerResponse,
    transport: SessionTransport,
    sessionId = headerValue(req, SESSION_HEADER),
  ): SessionRequest | undefined | Promise<SessionRequest | undefined> {
    let caller: CallerIdentity | undefined | Promise<CallerIdentity | undefined>;
    try {
      caller = this.identity.identifyForSession(req);
    } catch (err) {
      return refusedIdentity(req, res, err);
    }
    if (!isThenable(caller)) return this.sessionOf(req, res, transport, sessionId, caller);
    return caller.then(
      (identified) => this.sessionOf(req, res, transport, sessionId, identified),
      (err: unknown) => refusedIdentity(req, res, err),
    );
  }

  private sessionOf(
    req: IncomingMessage,
    res: ServerResponse,
    transport: SessionTransport,
    sessionId: string | undefined,
    caller: CallerIdentity | undefined,
  ): SessionRequest | undefined | Promise<SessionRequest | undefined> {
    if (!sessionId) {
      sendHttpError(res, 400, 'Bad Request: Mcp-Session-Id header is required after initialize');
      return undefined;
    }
    // A session held here is at hand; a shared one may first be copied from its record.
    const held = this.sessions.get(sessionId);
    if (held) return this.usable(req, res, transport, sessionId, held, caller);
    return this.sessions.find(sessionId).then(
      (found) => this.usable(req, res, transport, sessionId, found, caller),
      (err: unknown) => {
        if (!(err instanceof SessionStoreUnavailable)) throw err;
        sendHttpError(res, 503, 'Service unavailable: the shared session store cannot be reached');
        return undefined;
      },
    );
  }

  /** The session if it serves this transport and belongs to the caller; else the refusal written. */
  private usable(
    req: IncomingMessage,
    res: ServerResponse,
    transport: SessionTransport,
    sessionId: string,
    session: McpSession | undefined,
    caller: CallerIdentity | undefined,
  ): SessionRequest | undefined {
    if (!session || session.transport !== transport) {
      sendHttpError(
        res,
        404,
        `Session not found: ${sessionId} (it expired or was deleted; initialize again)`,
      );
      return undefined;
    }
    try {
      this.identity.checkSessionOwner(caller, session.owner);
    } catch (err) {
      return refusedIdentity(req, res, err);
    }
    this.sessions.touch(session);
    return { session, caller };
  }
}

/** An identity refusal written as the answer (undefined); anything else is thrown on. */
function refusedIdentity(req: IncomingMessage, res: ServerResponse, err: unknown): undefined {
  if (!(err instanceof IdentityRefused)) throw err;
  sendIdentityRefusal(req, res, err);
  return undefined;
}
