import { Controller, Delete, Get, Query, Req, Res } from '@nestjs/common';
import { Request, Response } from 'express';
import { McpSession } from '../../session/mcp-session';
import { SessionRegistry } from '../../session/session.registry';
import { acceptsEventStream, headerValue, LAST_EVENT_ID_HEADER } from './http-headers';
import { sendHttpError } from './http-reply';
import { HttpSessionLookup } from './http-session.lookup';
import { PostStreamFailover } from './post-stream-failover';
import { SseHub } from './sse.hub';
import { SharedStandaloneLog } from './shared-standalone-log';
import { isStandaloneStreamId, parseEventId, SSE_REPLAY_MAX_EVENTS } from './sse-event-log';
import { SseSessions, StandaloneSseSink, writeRecord } from './sse-sessions';
import { SseStream } from './sse-stream';

/**
 * Streamable HTTP (MCP 2025-03-26 and later) on /mcp: GET and DELETE here, POST in McpFrontDoor;
 * plus the seeds' GET /mcp/sse stream.
 * SSE events carry ids; a GET with Last-Event-ID resumes the stream it names (SEP-1699).
 */
@Controller('mcp')
export class StreamableHttpController {
  constructor(
    private readonly sessions: SessionRegistry,
    private readonly lookup: HttpSessionLookup,
    private readonly hub: SseHub,
    private readonly sse: SseSessions,
    private readonly sharedLog: SharedStandaloneLog,
    private readonly failover: PostStreamFailover,
  ) {}

  @Get()
  stream(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.openStandaloneStream(req, res);
  }

  /** The seeds' notification stream: same as GET /mcp, the session may also come as ?sessionId=. */
  @Get('sse')
  seedStream(
    @Req() req: Request,
    @Res() res: Response,
    @Query('sessionId') sessionId?: string,
  ): Promise<void> {
    return this.openStandaloneStream(req, res, sessionId);
  }

  @Delete()
  async terminate(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (!this.lookup.checkProtocolVersion(req, res)) return;
    const found = await this.lookup.require(req, res, 'streamable-http');
    if (!found) return;
    await this.sessions.terminate(found.session.id);
    res.status(200).end();
  }

  private async openStandaloneStream(
    req: Request,
    res: Response,
    sessionId?: string,
  ): Promise<void> {
    if (!this.lookup.checkProtocolVersion(req, res)) return;
    if (!acceptsEventStream(req)) {
      return sendHttpError(res, 406, 'Not Acceptable: GET needs Accept: text/event-stream');
    }
    const found = await this.lookup.require(req, res, 'streamable-http', sessionId ?? undefined);
    if (!found) return;
    const { session } = found;
    const lastEventId = headerValue(req, LAST_EVENT_ID_HEADER);
    if (lastEventId !== undefined) return this.resumeStream(session, lastEventId, res);
    if (session.hasStandaloneStream()) {
      return sendHttpError(res, 409, 'Conflict: this session already has an open SSE stream');
    }
    const stream = this.hub.openHeld(session.clientId, res, { 'Mcp-Session-Id': session.id });
    if (stream) this.attachStandalone(session, stream);
  }

  private attachStandalone(session: McpSession, stream: SseStream): void {
    const sink = new StandaloneSseSink(stream, this.sse.of(session), (record) =>
      this.sharedLog.mirror(session, record),
    );
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
  private async resumeStream(
    session: McpSession,
    lastEventId: string,
    res: Response,
  ): Promise<void> {
    const state = this.sse.of(session);
    const cursor = parseEventId(lastEventId);
    const shown = JSON.stringify(lastEventId.slice(0, 64));
    const elsewhere = cursor && !state.knows(cursor.streamId) && this.sessions.isShared(session);
    if (elsewhere && isStandaloneStreamId(cursor.streamId)) {
      return this.resumeOtherReplicaStream(session, lastEventId, res);
    }
    // A POST stream of another replica: relayed from it, or its requests failed when it died.
    if (elsewhere && (await this.failover.resume(session, cursor.streamId, lastEventId, res)))
      return;
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
    const standalone = cursor.streamId === state.standaloneStreamId;
    const running = standalone ? undefined : state.runningPostStream(cursor.streamId);
    if (standalone ? session.hasStandaloneStream() : running?.connected) {
      return sendHttpError(res, 409, 'Conflict: this stream already has an open connection');
    }
    const stream = this.hub.openHeld(session.clientId, res, { 'Mcp-Session-Id': session.id });
    if (!stream) return;
    for (const record of missed) writeRecord(stream, record);
    if (standalone) this.attachStandalone(session, stream);
    else if (running) running.attach(stream);
    // A finished POST stream: everything it sent after the cursor was just replayed.
    else stream.close();
  }

  /**
   * A standalone stream another replica held (it drained or died): its events
   * are in Redis for a shared session; they are replayed and the stream goes
   * on here. POST streams do not move (PostStreamFailover): their requests run on that replica.
   */
  private async resumeOtherReplicaStream(
    session: McpSession,
    lastEventId: string,
    res: Response,
  ): Promise<void> {
    // Not found: the replica died before the events reached Redis, or they were too many. The stream
    // goes on here without them (refusing would make clients give the stream up for good).
    const missed = (await this.sharedLog.after(session, lastEventId)) ?? [];
    if (session.hasStandaloneStream()) {
      return sendHttpError(res, 409, 'Conflict: this session already has an open SSE stream');
    }
    const stream = this.hub.openHeld(session.clientId, res, { 'Mcp-Session-Id': session.id });
    if (!stream) return;
    for (const record of missed) writeRecord(stream, record);
    this.attachStandalone(session, stream);
  }
}
