import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import { raw } from 'express';
import { IncomingMessage, ServerResponse } from 'node:http';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { ErrorCode } from '../../errors/error-code';
import { sendHttpError } from './http-reply';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

/** The body RawBodyMiddleware read (body-parser leaves it on the request); empty when none was. */
export function rawBodyOf(req: IncomingMessage): Buffer {
  const body = (req as IncomingMessage & { body?: unknown }).body;
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
}

/** How long the rest of a refused body may keep arriving before the connection is cut. */
const REFUSED_BODY_LINGER_MS = 2_000;

/**
 * Reads the POST body as raw bytes so that the JSON-RPC parser, not Express,
 * decides what a parse error is; bodies over http.body_limit_bytes get 413.
 */
@Injectable()
export class RawBodyMiddleware implements NestMiddleware {
  private readonly parse: ReturnType<typeof raw>;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {
    this.parse = raw({ type: () => true, limit: config.http.body_limit_bytes });
  }

  use(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const limit = this.config.http.body_limit_bytes;
    // A declared length over the limit is refused before a byte of the body is read.
    if (Number(req.headers['content-length']) > limit) return this.refuseTooLarge(req, res);
    this.parse(req, res, (err?: unknown) => {
      // Already refused while the body was still arriving.
      if (res.headersSent) return;
      if (!err) return next();
      const error = err as BodyParserError;
      if (error.type === 'entity.too.large') return this.refuseTooLarge(req, res);
      return sendHttpError(
        res,
        error.status ?? 400,
        `Could not read request body: ${error.message}`,
        ErrorCode.ParseError,
      );
    });
    // body-parser reads a too-large body to its very end before it reports the
    // error; counting along answers 413 as soon as the limit is crossed.
    if ((req.headers['content-encoding'] ?? 'identity') === 'identity') {
      let received = 0;
      const count = (chunk: Buffer) => {
        received += chunk.length;
        if (received <= limit) return;
        req.off('data', count);
        this.refuseTooLarge(req, res);
      };
      req.on('data', count);
      req.once('end', () => req.off('data', count));
    }
  }

  /**
   * 413 as soon as the body is known to be too large. The connection is not
   * closed at once, even if the client asked for that: closing with unread
   * bytes resets it, and a client still sending could lose this answer. The
   * rest of the body is read and dropped (never held); a client that goes on
   * sending is cut off after a moment.
   */
  private refuseTooLarge(req: IncomingMessage, res: ServerResponse): void {
    if (res.headersSent) return;
    if (!req.complete) {
      res.shouldKeepAlive = true;
      const socket = req.socket;
      const cutOff = setTimeout(() => socket.destroy(), REFUSED_BODY_LINGER_MS);
      cutOff.unref();
      const settled = () => clearTimeout(cutOff);
      req.once('end', settled);
      socket.once('close', settled);
    }
    sendHttpError(
      res,
      413,
      `Request body exceeds http.body_limit_bytes (${this.config.http.body_limit_bytes} bytes)`,
    );
  }
}
