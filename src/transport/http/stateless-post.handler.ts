import { Inject, Injectable } from '@nestjs/common';
import { IncomingMessage, ServerResponse } from 'node:http';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';
import { sessionOwnerOf } from '../../governance/identity/caller-identity';
import { ClientIdentityResolver } from '../../governance/identity/client-identity.resolver';
import { CallScopeCheck } from '../../governance/identity/oauth/call-scope.check';
import { JsonRpcDispatcher } from '../../json-rpc/json-rpc.dispatcher';
import { JsonRpcErrorMapper } from '../../json-rpc/json-rpc-error.mapper';
import { failure, invalidRequest } from '../../json-rpc/json-rpc.responses';
import {
  InboundFrame,
  JsonRpcFailure,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from '../../json-rpc/json-rpc.types';
import { isModernVersion } from '../../json-rpc/protocol-version';
import {
  metaProtocolVersion,
  readRequestMeta,
  RequestMeta,
  requireMetaVersion,
} from '../../json-rpc/request-meta';
import { McpSession } from '../../session/mcp-session';
import { ToolRegistry } from '../../tools/tool.registry';
import { VisibilityPolicy } from '../../governance/visibility/visibility.policy';
import { checkParamHeaders } from './param-headers.check';
import {
  acceptsEventStream,
  headerValue,
  PROTOCOL_VERSION_HEADER,
  traceparentOf,
} from './http-headers';
import { sendJson } from './http-reply';
import { identifyOrRefuse, sendIdentityRefusal } from './identity-refusal';
import { liveHeaders } from './live-headers';
import { checkMirroredHeaders } from './mirrored-headers.check';
import { SseHub } from './sse.hub';
import { StatelessResponseSink } from './stateless-response.sink';

/** JSON-RPC errors the 2026-07-28 transport answers with an HTTP status other than 200. */
const HTTP_STATUS_OF_CODE: Readonly<Partial<Record<number, number>>> = {
  [ErrorCode.MethodNotFound]: 404,
  [ErrorCode.HeaderMismatch]: 400,
  [ErrorCode.MissingRequiredClientCapability]: 400,
  [ErrorCode.UnsupportedProtocolVersion]: 400,
};

/**
 * Whether a POST /mcp frame is a stateless (2026-07-28) request: its
 * MCP-Protocol-Version header or its `_meta` names a modern revision, or its
 * `_meta` names any revision at all (an unsupported one is refused as the
 * revision says). Everything else is served by the session-based revisions.
 */
export function isStatelessFrame(req: IncomingMessage, frame: InboundFrame): boolean {
  if (isModernVersion(headerValue(req, PROTOCOL_VERSION_HEADER))) return true;
  if (frame.kind !== 'single') return false;
  const { entry } = frame;
  if (entry.kind !== 'request' && entry.kind !== 'notification') return false;
  return metaProtocolVersion(entry.message.params) !== undefined;
}

/**
 * POST /mcp for 2026-07-28 (the stateless revision, beside the session-based
 * ones on the same endpoint): each request carries its revision, the
 * client's capabilities and, optionally, its identity and log level in
 * `_meta`; nothing is kept between requests. The caller is identified per
 * request exactly as for a session (API key, OAuth token or header), and the
 * request runs through the same dispatcher, governance and ledger, on a
 * session that lives for this request only and holds no slot.
 */
@Injectable()
export class StatelessPostHandler {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly dispatcher: JsonRpcDispatcher,
    private readonly identity: ClientIdentityResolver,
    private readonly errors: JsonRpcErrorMapper,
    private readonly hub: SseHub,
    private readonly scopes: CallScopeCheck,
    private readonly tools: ToolRegistry,
    private readonly visibility: VisibilityPolicy,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse, frame: InboundFrame): Promise<void> {
    const traceparent = traceparentOf(req);
    const message = this.singleMessage(frame, res, traceparent);
    if (message === undefined) return;
    const id: JsonRpcId | null = 'id' in message ? message.id : null;
    let meta: RequestMeta;
    try {
      // Missing fields first (-32602), then headers that disagree with the body (-32020), then
      // an unsupported revision (-32022): a header naming another revision is a mismatch.
      const version = requireMetaVersion(message.params);
      if ('id' in message) checkMirroredHeaders(req, message, String(version));
      meta = readRequestMeta(message.params, this.config.limits.session_metadata_bytes);
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      const error = this.errors.toErrorObject(err);
      return this.refuse(
        res,
        failure(id, error.code, error.message, error.data),
        traceparent,
        message,
      );
    }

    const caller = await identifyOrRefuse(this.identity, req, res);
    if (caller === undefined) return;
    const scopeRefusal = this.scopes.refusal(frame, caller);
    if (scopeRefusal) return sendIdentityRefusal(req, res, scopeRefusal);
    try {
      if ('id' in message) this.checkToolParamHeaders(req, message, caller.clientId);
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      return this.refuse(res, failure(id, err.code, err.message), traceparent, message);
    }

    const session = requestScopedSession(caller.clientId, sessionOwnerOf(caller), meta);
    try {
      const sink = new StatelessResponseSink(
        res,
        this.hub,
        acceptsEventStream(req),
        statusOf,
        () => {
          // Closing the response stream is how a 2026-07-28 client cancels its request.
          if (id !== null) session.cancelLocalRequest(id, 'the client closed the response stream');
        },
      );
      if (id === null) {
        // No client notification is defined over HTTP in 2026-07-28; it is accepted and handled as usual.
        sink.finish(undefined);
        await this.dispatcher.dispatchParsed(frame, { session, token: caller.token, traceparent });
        return;
      }
      const result = await this.dispatcher.dispatchParsed(frame, {
        session,
        sink,
        token: caller.token,
        responseHeaders: liveHeaders(res),
        traceparent,
      });
      sink.finish(Array.isArray(result) ? undefined : result);
    } finally {
      session.close();
    }
  }

  /**
   * A tools/call's `Mcp-Param-*` headers against its arguments, for a tool
   * the caller may see (for any other the call itself answers "not found",
   * and the headers must not tell that the tool exists).
   */
  private checkToolParamHeaders(
    req: IncomingMessage,
    request: JsonRpcRequest,
    clientId: string,
  ): void {
    if (request.method !== 'tools/call') return;
    const name = request.params?.name;
    const tool = typeof name === 'string' ? this.tools.get(name) : undefined;
    if (!tool || !this.visibility.isToolVisible(tool.name, clientId, tool.options.visibility))
      return;
    checkParamHeaders(req, tool.inputSchema, request.params?.arguments);
  }

  /** Refused before dispatch, yet an error of this request: logged, with its trace id. */
  private refuse(
    res: ServerResponse,
    refusal: JsonRpcFailure,
    traceparent: string | undefined,
    message: JsonRpcRequest | JsonRpcNotification,
  ): void {
    sendJson(res, 400, this.dispatcher.refuse(refusal, traceparent, undefined, message.params));
  }

  /** The frame's one request or notification, or undefined with the refusal written (and logged). */
  private singleMessage(
    frame: InboundFrame,
    res: ServerResponse,
    traceparent: string | undefined,
  ): JsonRpcRequest | JsonRpcNotification | undefined {
    if (frame.kind === 'single') {
      const { entry } = frame;
      if (entry.kind === 'request' || entry.kind === 'notification') return entry.message;
    }
    sendJson(res, 400, this.dispatcher.refuse(refusalOf(frame), traceparent));
    return undefined;
  }
}

/** Why a frame is not the one request or notification a 2026-07-28 POST carries. */
function refusalOf(frame: InboundFrame): JsonRpcFailure {
  if (frame.kind === 'unparseable') return frame.response;
  if (frame.kind === 'single' && frame.entry.kind === 'invalid') return frame.entry.response;
  return invalidRequest(
    null,
    frame.kind === 'batch'
      ? 'a POST carries one message in 2026-07-28, not a batch'
      : 'clients do not send responses in 2026-07-28',
  );
}

/** A session for one stateless request: what its `_meta` declares, initialized, shared with nobody. */
function requestScopedSession(clientId: string, owner: string, meta: RequestMeta): McpSession {
  const session = new McpSession('streamable-http', clientId, owner);
  session.protocolVersion = meta.protocolVersion;
  session.clientCapabilities = meta.clientCapabilities;
  session.clientInfo = meta.clientInfo;
  session.logLevel = meta.logLevel;
  session.initialized = true;
  return session;
}

function statusOf(response: JsonRpcResponse): number {
  return 'error' in response ? (HTTP_STATUS_OF_CODE[response.error.code] ?? 200) : 200;
}
