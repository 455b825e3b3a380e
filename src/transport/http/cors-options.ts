import type { CorsOptions } from 'cors';
import { GatewayConfig } from '../../config/gateway-config';
import { OriginMiddleware } from './origin.middleware';

/**
 * The CORS policy of every HTTP route, from `http.cors`: Express applies it
 * through Nest's enableCors, and the MCP front door applies the same options
 * to the POST /mcp requests it serves itself.
 */
export function corsOptions(config: GatewayConfig, origins: OriginMiddleware): CorsOptions {
  const { cors } = config.http;
  return {
    origin: (origin, callback) =>
      callback(null, origin === undefined || origins.isAllowedOrigin(origin, '')),
    methods: cors.allowed_methods,
    allowedHeaders: cors.allowed_headers,
    exposedHeaders: cors.exposed_headers,
    maxAge: cors.max_age,
  };
}
