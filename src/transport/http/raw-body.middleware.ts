import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import { NextFunction, Request, Response, raw } from 'express';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { ErrorCode } from '../../errors/error-code';
import { sendHttpError } from './http-reply';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

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

  use(req: Request, res: Response, next: NextFunction): void {
    this.parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const error = err as BodyParserError;
      if (error.type === 'entity.too.large') {
        res.set('Connection', 'close');
        return sendHttpError(
          res,
          413,
          `Request body exceeds http.body_limit_bytes (${this.config.http.body_limit_bytes} bytes)`,
        );
      }
      return sendHttpError(
        res,
        error.status ?? 400,
        `Could not read request body: ${error.message}`,
        ErrorCode.ParseError,
      );
    });
  }
}
