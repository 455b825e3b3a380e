import { Inject, Injectable, Logger } from '@nestjs/common';
import cors from 'cors';
import { EventEmitter } from 'node:events';
import { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { ErrorCode } from '../../errors/error-code';
import { corsOptions } from './cors-options';
import { sendHttpError } from './http-reply';
import { McpPostHandler } from './mcp-post.handler';
import { OriginMiddleware } from './origin.middleware';
import { RawBodyMiddleware } from './raw-body.middleware';

type Step = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * The gateway's request listener, in front of Express. It serves POST /mcp
 * (the request every tool call arrives on) itself: CORS, the Origin/Host
 * check, the raw body with its limit, then McpPostHandler; it doubles the
 * requests/s of a trivial call (docs/performance.md). Every other request
 * goes to Express. The Host check of a loopback-bound gateway runs here
 * first for every request, so no route (health, metrics, admin, the skill
 * mirror) escapes it.
 */
@Injectable()
export class McpFrontDoor {
  private readonly logger = new Logger(McpFrontDoor.name);
  private readonly cors?: Step;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly origins: OriginMiddleware,
    private readonly body: RawBodyMiddleware,
    private readonly handler: McpPostHandler,
  ) {
    if (config.http.cors.enabled) this.cors = cors(corsOptions(config, origins));
  }

  /** Puts the front door before the server's request listener (Express); HTTP or HTTPS. */
  install(server: EventEmitter): void {
    const [express, ...others] = server.listeners('request') as RequestListener[];
    if (!express || others.length > 0) {
      throw new Error('MCP front door: expected exactly one request listener (Express)');
    }
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!this.origins.admitHost(req, res)) return;
      if (isMcpPost(req)) this.serve(req, res);
      else void express(req, res);
    });
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    const fail = (err: unknown) => this.fail(res, err);
    // Every step may also throw synchronously; as under Express, that is a 500, never a crash.
    const guarded = (step: () => void) => {
      try {
        step();
      } catch (err) {
        fail(err);
      }
    };
    const admitted = () =>
      guarded(() => {
        if (!this.origins.admit(req, res)) return;
        this.body.use(req, res, () => void this.handler.handle(req, res).catch(fail));
      });
    const cors = this.cors;
    if (!cors) return admitted();
    guarded(() => cors(req, res, (err) => (err ? fail(err) : admitted())));
  }

  /** What Nest's default filter would have done for an unexpected error, as a JSON-RPC body. */
  private fail(res: ServerResponse, err: unknown): void {
    this.logger.error({
      msg: 'POST /mcp failed',
      error: err instanceof Error ? err.message : String(err),
      stack: err instanceof Error ? err.stack : undefined,
    });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendHttpError(res, 500, 'Internal server error', ErrorCode.InternalError);
  }
}

/**
 * POST /mcp, with or without a trailing slash or a query string, in any case:
 * every spelling Express's router would match for the route.
 */
function isMcpPost(req: IncomingMessage): boolean {
  if (req.method !== 'POST') return false;
  const url = req.url ?? '';
  const query = url.indexOf('?');
  const path = (query === -1 ? url : url.slice(0, query)).toLowerCase();
  return path === '/mcp' || path === '/mcp/';
}
