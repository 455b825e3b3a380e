import { Controller, Delete, Get, Post, Query, Req, Res } from '@nestjs/common';
import { Request, Response } from 'express';
import { ClientIdentityResolver } from '../../governance/identity/client-identity.resolver';
import { JsonRpcDispatcher } from '../../json-rpc/json-rpc.dispatcher';
import { parseFrame } from '../../json-rpc/json-rpc.parser';
import { allowsBatching } from '../../json-rpc/protocol-version';
import { InboundEntry, InboundFrame, isFailure } from '../../json-rpc/json-rpc.types';
import { McpSession } from '../../session/mcp-session';
import { SessionRegistry } from '../../session/session.registry';
import { acceptsEventStream, headerValue, LAST_EVENT_ID_HEADER } from './http-headers';
import { sendHttpError, sendJson } from './http-reply';
import { HttpSessionLookup } from './http-session.lookup';
import { liveHeaders } from './live-headers';
import { PostResponseSink } from './post-response.sink';
import { SseHub } from './sse.hub';
import { parseEventId, SSE_REPLAY_MAX_EVENTS, STANDALONE_STREAM_ID } from './sse-event-log';
import { SseSessions, StandaloneSseSink, writeRecord } from './sse-sessions';
import { SseStream } from './sse-stream';

/**
 * Streamable HTTP (MCP 2025-03-26 and later) on /mcp, plus the seeds' GET /mcp/sse stream.
 * SSE events carry ids; a GET with Last-Event-ID resumes the stream it names (SEP-1699).
 */
@Controller('mcp')
export class StreamableHttpController {
  constructor(
    private readonly dispatcher: JsonRpcDispatcher,
    private readonly sessions: SessionRegistry,
    private readonly lookup: HttpSessionLookup,
    private readonly hub: SseHub,
    private readonly identity: ClientIdentityResolver,
    private readonly sse: SseSessions,
  ) {}

  @Post()
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (!this.lookup.checkProtocolVersion(req, res)) return;
    const frame = parseFrame(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    if (frame.kind === 'unparseable') return sendJson(res, 400, frame.response);

    const initializing = isInitialize(frame);
    const session = initializing
      ? this.openSession(req, res)
      : this.lookup.require(req, res, 'streamable-http');
    if (!session) return;
    if (initializing) res.setHeader('Mcp-Session-Id', session.id);

    const sink = new PostResponseSink(
      res,
      this.hub,
      acceptsEventStream(req),
      session,
      this.sse.of(session),
    );
    if (!expectsAnswer(frame, session)) {
      // Notifications and responses only: acknowledge, then process.
      sink.finish(undefined);
      await this.dispatcher.dispatchParsed(frame, { session });
      return;
    }
    const result = await this.dispatcher.dispatchParsed(frame, {
      session,
      sink,
      responseHeaders: liveHeaders(res),
    });
    if (initializing && (result === undefined || Array.isArray(result) || isFailure(result))) {
      // A failed handshake leaves no half-made session behind.
      res.removeHeader('Mcp-Session-Id');
      this.sessions.remove(session.id);
    }
    sink.finish(result);
  }

  @Get()
  stream(@Req() req: Request, @Res() res: Response): void {
    this.openStandaloneStream(req, res);
  }

  /** The seeds' notification stream: same as GET /mcp, the session may also come as ?sessionId=. */
  @Get('sse')
  seedStream(
    @Req() req: Request,
    @Res() res: Response,
    @Query('sessionId') sessionId?: string,
  ): void {
    this.openStandaloneStream(req, res, sessionId);
  }

  @Delete()
  terminate(@Req() req: Request, @Res() res: Response): void {
    if (!this.lookup.checkProtocolVersion(req, res)) return;
    const session = this.lookup.require(req, res, 'streamable-http');
    if (!session) return;
    this.sessions.remove(session.id);
    res.status(200).end();
  }

  /** The identity is bound to the session here; later requests must present the same one. */
  private openSession(req: Request, res: Response): McpSession | undefined {
    const clientId = this.identity.identify(req, res);
    return clientId === undefined ? undefined : this.sessions.create('streamable-http', clientId);
  }

  private openStandaloneStream(req: Request, res: Response, sessionId?: string): void {
    if (!this.lookup.checkProtocolVersion(req, res)) return;
    if (!acceptsEventStream(req)) {
      return sendHttpError(res, 406, 'Not Acceptable: GET needs Accept: text/event-stream');
    }
    const session = this.lookup.require(req, res, 'streamable-http', sessionId ?? undefined);
    if (!session) return;
    const lastEventId = headerValue(req, LAST_EVENT_ID_HEADER);
    if (lastEventId !== undefined) return this.resumeStream(session, lastEventId, res);
    if (session.hasStandaloneStream()) {
      return sendHttpError(res, 409, 'Conflict: this session already has an open SSE stream');
    }
    this.attachStandalone(session, this.hub.open(res, { 'Mcp-Session-Id': session.id }));
  }

  private attachStandalone(session: McpSession, stream: SseStream): void {
    const sink = new StandaloneSseSink(stream, this.sse.of(session).log);
    session.attachStandalone(sink);
    const unsubscribe = session.onClose(() => stream.close());
    stream.onClose(() => {
      unsubscribe();
      session.detachStandalone(sink);
      session.touch();
    });
  }

  /**
   * GET with Last-Event-ID: the events the named stream sent after that id,
   * then (while the stream still runs) the rest of it on this connection. A
   * POST stream's resumed connection ends after its response, like the POST's.
   */
  private resumeStream(session: McpSession, lastEventId: string, res: Response): void {
    const state = this.sse.of(session);
    const cursor = parseEventId(lastEventId);
    const shown = JSON.stringify(lastEventId.slice(0, 64));
    if (!cursor || !state.knows(cursor.streamId)) {
      return sendHttpError(
        res,
        400,
        `Bad Request: Last-Event-ID ${shown} names no stream of this session`,
      );
    }
    const missed = state.log.after(cursor);
    if (!missed) {
      return sendHttpError(
        res,
        400,
        `Bad Request: cannot resume after ${shown}: the session does not hold every event after it (it keeps its newest ${SSE_REPLAY_MAX_EVENTS}); reconnect without Last-Event-ID`,
      );
    }
    const standalone = cursor.streamId === STANDALONE_STREAM_ID;
    const running = standalone ? undefined : state.runningPostStream(cursor.streamId);
    if (standalone ? session.hasStandaloneStream() : running?.connected) {
      return sendHttpError(res, 409, 'Conflict: this stream already has an open connection');
    }
    const stream = this.hub.open(res, { 'Mcp-Session-Id': session.id });
    for (const record of missed) writeRecord(stream, record);
    if (standalone) this.attachStandalone(session, stream);
    else if (running) running.attach(stream);
    // A finished POST stream: everything it sent after the cursor was just replayed.
    else stream.close();
  }
}

function isInitialize(frame: InboundFrame): boolean {
  return (
    frame.kind === 'single' &&
    frame.entry.kind === 'request' &&
    frame.entry.message.method === 'initialize'
  );
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
