import { Controller, Delete, Get, Query, Req, Res } from '@nestjs/common';
import { Request, Response } from 'express';
import { McpSession } from '../../session/mcp-session';
import { SessionRegistry } from '../../session/session.registry';
import { acceptsEventStream, headerValue, LAST_EVENT_ID_HEADER } from './http-headers';
import { sendHttpError } from './http-reply';
import { HttpSessionLookup } from './http-session.lookup';
import { SseHub } from './sse.hub';
import { parseEventId, SSE_REPLAY_MAX_EVENTS, STANDALONE_STREAM_ID } from './sse-event-log';
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
    this.sessions.remove(found.session.id);
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
    this.openFreshStandalone(session, res);
  }

  private openFreshStandalone(session: McpSession, res: Response): void {
    if (session.hasStandaloneStream()) {
      return sendHttpError(res, 409, 'Conflict: this session already has an open SSE stream');
    }
    const stream = this.hub.openHeld(session.clientId, res, { 'Mcp-Session-Id': session.id });
    if (stream) this.attachStandalone(session, stream);
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
    const standalone = cursor.streamId === STANDALONE_STREAM_ID;
    // Another replica held the stream (it died, say): what it sent is gone with it, the stream goes on here.
    if (!missed && standalone && this.sessions.isShared(session)) {
      return this.openFreshStandalone(session, res);
    }
    if (!missed) {
      return sendHttpError(
        res,
        400,
        `Bad Request: cannot resume after ${shown}: the session does not hold every event after it (it keeps its newest ${SSE_REPLAY_MAX_EVENTS}); reconnect without Last-Event-ID`,
      );
    }
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
}
