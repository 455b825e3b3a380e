import {
  CanActivate,
  ExecutionContext,
  Inject,
  Injectable,
  Logger,
  UnauthorizedException,
} from '@nestjs/common';
import { Request, Response } from 'express';
import { BearerToken } from '../common/bearer-token';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { isLoopbackBind } from '../common/loopback-bind';

export const METRICS_TOKEN_ENV = 'MCP_SERVER_METRICS_TOKEN';

/**
 * GET /metrics needs `Authorization: Bearer <MCP_SERVER_METRICS_TOKEN>` when
 * that variable is set (401 otherwise); unset, it stays open for scrapers,
 * with a warning at start when the gateway listens beyond loopback.
 */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  private readonly expected = BearerToken.fromEnv(METRICS_TOKEN_ENV);

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    if (!this.expected && config.transport === 'http' && !isLoopbackBind(config.http.host)) {
      new Logger('Metrics').warn({
        msg: `/metrics is open to anyone who reaches ${config.http.host}; set ${METRICS_TOKEN_ENV} to require a bearer token`,
      });
    }
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) return true;
    const http = context.switchToHttp();
    if (this.expected.matches(http.getRequest<Request>().headers.authorization)) return true;
    http.getResponse<Response>().setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
    throw new UnauthorizedException('A valid metrics bearer token is required');
  }
}
