import { Controller, Get, Logger, Post, Query, Req, Res } from '@nestjs/common';
import { Request, Response } from 'express';
import { JsonRpcDispatcher } from '../../json-rpc/json-rpc.dispatcher';
import { FrameParser } from '../../json-rpc/frame-parser.service';
import { SessionRegistry } from '../../session/session.registry';
import { traceparentOf } from './http-headers';
import { sendJson } from './http-reply';
import { CallScopeCheck } from '../../governance/identity/oauth/call-scope.check';
import { sendIdentityRefusal } from './identity-refusal';
import { HttpSessionLookup } from './http-session.lookup';
import { SseHub } from './sse.hub';

export const LEGACY_MESSAGES_PATH = '/messages';

/**
 * The 2024-11-05 HTTP+SSE transport for old clients: GET /sse opens the
 * session's stream and names the POST endpoint; every answer rides the stream.
 */
@Controller()
export class LegacySseController {
  private readonly logger = new Logger(LegacySseController.name);

  constructor(
    private readonly dispatcher: JsonRpcDispatcher,
    private readonly sessions: SessionRegistry,
    private readonly lookup: HttpSessionLookup,
    private readonly hub: SseHub,
    private readonly scopes: CallScopeCheck,
    private readonly frames: FrameParser,
  ) {}

  @Get('sse')
  async open(@Req() req: Request, @Res() res: Response): Promise<void> {
    const found = await this.lookup.open(req, res, 'legacy-sse');
    if (!found) return;
    const { session } = found;
    // The client's first POST (initialize) may reach another replica.
    await this.sessions.persist(session);
    const stream = this.hub.openHeld(session.clientId, res);
    if (!stream) {
      // Refused by limits.sse_streams_*: the stream is the session, so neither is kept.
      this.sessions.remove(session.id);
      return;
    }
    session.attachStandalone(stream);
    // The stream is the session: when either ends, both do.
    const unsubscribe = session.onClose(() => stream.close());
    stream.onClose(() => {
      unsubscribe();
      this.sessions.remove(session.id);
    });
    stream.sendEvent(
      'endpoint',
      `${LEGACY_MESSAGES_PATH}?sessionId=${encodeURIComponent(session.id)}`,
    );
  }

  @Post('messages')
  async receive(
    @Req() req: Request,
    @Res() res: Response,
    @Query('sessionId') sessionId?: string,
  ): Promise<void> {
    const found = await this.lookup.require(req, res, 'legacy-sse', sessionId);
    if (!found) return;
    const { session, caller } = found;
    const frame = this.frames.parse(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    const traceparent = traceparentOf(req);
    if (frame.kind === 'unparseable') {
      return sendJson(res, 400, this.dispatcher.refuse(frame.response, traceparent, session));
    }
    // Answers travel on the stream, so a scope refusal is the one thing this POST can still say.
    const scopeRefusal = this.scopes.refusal(frame, caller);
    if (scopeRefusal) return sendIdentityRefusal(req, res, scopeRefusal);
    res.status(202).set('Content-Type', 'text/plain').send('Accepted');
    void this.dispatcher
      .dispatchParsed(frame, { session, token: caller?.token, traceparent })
      .then((result) => {
        if (result !== undefined) session.sendOnStream(result);
      })
      .catch((err: unknown) =>
        this.logger.error({ msg: 'legacy dispatch failed', error: String(err) }),
      );
  }
}
