import { Controller, Delete, Get, Post, Query, Req, Res } from '@nestjs/common';
import { Request, Response } from 'express';
import { JsonRpcDispatcher } from '../../json-rpc/json-rpc.dispatcher';
import { JsonRpcErrorMapper } from '../../json-rpc/json-rpc-error.mapper';
import { parseFrame } from '../../json-rpc/json-rpc.parser';
import { InboundEntry, InboundFrame, isFailure } from '../../json-rpc/json-rpc.types';
import { McpSession } from '../../session/mcp-session';
import { SessionRegistry } from '../../session/session.registry';
import { resolveHttpClientId } from './http-client-id';
import { acceptsEventStream } from './http-headers';
import { sendHttpError, sendJson } from './http-reply';
import { HttpSessionLookup } from './http-session.lookup';
import { liveHeaders } from './live-headers';
import { PostResponseSink } from './post-response.sink';
import { SseHub } from './sse.hub';

/** Streamable HTTP (MCP 2025-03-26 and later) on /mcp, plus the seeds' GET /mcp/sse stream. */
@Controller('mcp')
export class StreamableHttpController {
  constructor(
    private readonly dispatcher: JsonRpcDispatcher,
    private readonly sessions: SessionRegistry,
    private readonly lookup: HttpSessionLookup,
    private readonly hub: SseHub,
    private readonly errors: JsonRpcErrorMapper,
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

    const sink = new PostResponseSink(res, this.hub, acceptsEventStream(req));
    if (!expectsAnswer(frame)) {
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

  private openSession(req: Request, res: Response): McpSession | undefined {
    try {
      return this.sessions.create('streamable-http', resolveHttpClientId(req));
    } catch (err) {
      const error = this.errors.toErrorObject(err);
      sendHttpError(res, 400, error.message, error.code);
      return undefined;
    }
  }

  private openStandaloneStream(req: Request, res: Response, sessionId?: string): void {
    if (!this.lookup.checkProtocolVersion(req, res)) return;
    if (!acceptsEventStream(req)) {
      return sendHttpError(res, 406, 'Not Acceptable: GET needs Accept: text/event-stream');
    }
    const session = this.lookup.require(req, res, 'streamable-http', sessionId ?? undefined);
    if (!session) return;
    if (session.hasStandaloneStream()) {
      return sendHttpError(res, 409, 'Conflict: this session already has an open SSE stream');
    }
    const stream = this.hub.open(res, { 'Mcp-Session-Id': session.id });
    session.attachStandalone(stream);
    const unsubscribe = session.onClose(() => stream.close());
    stream.onClose(() => {
      unsubscribe();
      session.detachStandalone(stream);
      session.touch();
    });
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

function expectsAnswer(frame: InboundFrame): boolean {
  if (frame.kind === 'batch') return frame.entries.some(needsAnswer);
  return frame.kind === 'single' && needsAnswer(frame.entry);
}
