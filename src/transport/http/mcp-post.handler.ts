import { Injectable } from '@nestjs/common';
import { IncomingMessage, ServerResponse } from 'node:http';
import { isThenable } from '../../common/is-thenable';
import { JsonRpcDispatcher } from '../../json-rpc/json-rpc.dispatcher';
import { FrameParser } from '../../json-rpc/frame-parser.service';
import { allowsBatching } from '../../json-rpc/protocol-version';
import { InboundEntry, InboundFrame, isFailure, JsonRpcId } from '../../json-rpc/json-rpc.types';
import { McpSession } from '../../session/mcp-session';
import { SessionRegistry } from '../../session/session.registry';
import { CallScopeCheck } from '../../governance/identity/oauth/call-scope.check';
import { acceptsEventStream, traceparentOf } from './http-headers';
import { sendIdentityRefusal } from './identity-refusal';
import { sendJson } from './http-reply';
import { HttpSessionLookup } from './http-session.lookup';
import { liveHeaders } from './live-headers';
import { PostResponseSink } from './post-response.sink';
import { PostStreamRecords } from './post-stream-records';
import { rawBodyOf } from './raw-body.middleware';
import { SseHub } from './sse.hub';
import { SseSessions } from './sse-sessions';
import { isStatelessFrame, StatelessPostHandler } from './stateless-post.handler';

/**
 * POST /mcp (Streamable HTTP): one JSON-RPC frame in, its answer out as JSON
 * or as an SSE stream, served by the front door (mcp-front-door.ts) on Node's
 * own request and response. The body has been read by RawBodyMiddleware.
 */
@Injectable()
export class McpPostHandler {
  constructor(
    private readonly dispatcher: JsonRpcDispatcher,
    private readonly sessions: SessionRegistry,
    private readonly lookup: HttpSessionLookup,
    private readonly hub: SseHub,
    private readonly sse: SseSessions,
    private readonly scopes: CallScopeCheck,
    private readonly stateless: StatelessPostHandler,
    private readonly postStreams: PostStreamRecords,
    private readonly frames: FrameParser,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const frame = this.frames.parse(rawBodyOf(req));
    if (isStatelessFrame(req, frame)) return this.stateless.handle(req, res, frame);
    if (!this.lookup.checkProtocolVersion(req, res)) return;
    const traceparent = traceparentOf(req);
    if (frame.kind === 'unparseable') {
      return sendJson(res, 400, this.dispatcher.refuse(frame.response, traceparent));
    }

    const initializeId = initializeRequestId(frame);
    const initializing = initializeId !== undefined;
    // The identity is bound to the session here; later requests must present the same one.
    const looked = initializing
      ? this.lookup.open(req, res, 'streamable-http', initializeId)
      : this.lookup.require(req, res, 'streamable-http');
    const found = isThenable(looked) ? await looked : looked;
    if (!found) return;
    const { session, caller } = found;
    const scopeRefusal = this.scopes.refusal(frame, caller);
    if (scopeRefusal) {
      if (initializing) this.sessions.remove(session.id);
      return sendIdentityRefusal(req, res, scopeRefusal);
    }
    if (initializing) res.setHeader('Mcp-Session-Id', session.id);
    const token = caller?.token;

    const sink = new PostResponseSink(
      res,
      this.hub,
      acceptsEventStream(req),
      session,
      this.sse.of(session),
      this.postStreams.recorderFor(session, frame, traceparent),
    );
    if (!expectsAnswer(frame, session)) {
      // Notifications and responses only: acknowledge, then process.
      sink.finish(undefined);
      await this.dispatcher.dispatchParsed(frame, { session, token, traceparent });
      return;
    }
    const result = await this.dispatcher.dispatchParsed(frame, {
      session,
      sink,
      token,
      responseHeaders: liveHeaders(res),
      traceparent,
    });
    if (initializing && (result === undefined || Array.isArray(result) || isFailure(result))) {
      // A failed handshake leaves no half-made session behind.
      res.removeHeader('Mcp-Session-Id');
      this.sessions.remove(session.id);
    }
    sink.finish(result);
  }
}

/** The id of the frame's initialize request; undefined when the frame is not one. */
function initializeRequestId(frame: InboundFrame): JsonRpcId | undefined {
  return frame.kind === 'single' &&
    frame.entry.kind === 'request' &&
    frame.entry.message.method === 'initialize'
    ? frame.entry.message.id
    : undefined;
}

function needsAnswer(entry: InboundEntry): boolean {
  return entry.kind === 'request' || entry.kind === 'invalid';
}

/** A batch where the session's version forbids batches is answered (-32600), as over stdio. */
function expectsAnswer(frame: InboundFrame, session: McpSession): boolean {
  if (frame.kind === 'batch') {
    return !allowsBatching(session.protocolVersion) || frame.entries.some(needsAnswer);
  }
  return frame.kind === 'single' && needsAnswer(frame.entry);
}
