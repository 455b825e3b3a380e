import { INestApplication, Logger, LoggerService, ShutdownSignal } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { adminAccess, adminApiStartLine } from '../admin/admin-access.policy';
import { AppModule, AppModuleOptions } from '../app.module';
import { GatewayConfig } from '../config/gateway-config';
import { ShutdownDeadline } from '../health/shutdown.deadline';
import { anonymousRemoteBindWarning } from '../transport/http/anonymous-remote-bind.warning';
import { ConnectionCaps } from '../transport/http/connection-caps';
import { GracefulDrain } from '../transport/http/graceful-drain';
import { corsOptions } from '../transport/http/cors-options';
import { McpFrontDoor } from '../transport/http/mcp-front-door';
import { OriginMiddleware } from '../transport/http/origin.middleware';

const NOT_NEST_SIGNALS = new Set<string>([
  ShutdownSignal.SIGHUP,
  ShutdownSignal.SIGTERM,
  ShutdownSignal.SIGINT,
]);

/** How often Node closes connections past the headers or request timeout. */
const CONNECTIONS_CHECK_INTERVAL_MS = 1_000;

export interface HttpGatewayOptions {
  config: GatewayConfig;
  configSource?: string;
  logger: LoggerService | false;
  extraModules?: AppModuleOptions['extraModules'];
}

/** Builds the HTTP gateway without listening (tests listen on port 0 themselves). */
export async function createHttpGateway(
  options: HttpGatewayOptions,
): Promise<NestExpressApplication> {
  const { config } = options;
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot({
      transport: 'http',
      config,
      configSource: options.configSource,
      extraModules: options.extraModules,
    }),
    {
      // The MCP routes read raw bytes themselves so that the JSON-RPC parser owns parse errors.
      bodyParser: false,
      logger: options.logger,
      httpsOptions: config.http.tls.enabled
        ? {
            cert: readFileSync(config.http.tls.cert_file ?? ''),
            key: readFileSync(config.http.tls.key_file ?? ''),
          }
        : undefined,
    },
  );
  app.disable('x-powered-by');
  // JSON-RPC answers are never cacheable; hashing each body for an ETag is wasted work.
  app.set('etag', false);
  // Peer addresses identify clients when no header does; behind a load balancer that is its hop.
  app.set('trust proxy', 'loopback');
  if (config.http.cors.enabled) enableCors(app, config);
  app.get(ConnectionCaps).install(app.getHttpServer());
  app.get(McpFrontDoor).install(app.getHttpServer() as EventEmitter);
  // SIGHUP reloads (governance rules, upstream registry); Nest's default list would stop the gateway on it.
  // SIGTERM and SIGINT drain first (readiness off, delay, listener closed): GracefulDrain owns them.
  app.enableShutdownHooks(
    Object.values(ShutdownSignal).filter((signal) => !NOT_NEST_SIGNALS.has(signal)),
  );
  app.get(ShutdownDeadline).listen();
  app.get(GracefulDrain).listen(() => app.close());
  return app;
}

function enableCors(app: INestApplication, config: GatewayConfig): void {
  app.enableCors(corsOptions(config, app.get(OriginMiddleware)));
}

/** Starts listening, says whether /admin is served and warns of an anonymous remote bind; resolves with the bound address (port 0 picks a free port). */
export async function listenHttpGateway(
  app: INestApplication,
  config: GatewayConfig,
): Promise<AddressInfo> {
  const server = app.getHttpServer() as HttpServer;
  server.keepAliveTimeout = config.http.keep_alive_timeout_seconds * 1000;
  // Node counts both from a request's first byte (or the connection's opening), not from keep-alive idle time.
  server.headersTimeout = config.http.headers_timeout_seconds * 1000;
  server.requestTimeout = config.http.request_timeout_seconds * 1000;
  // Node looks for expired requests every 30 s by default: a 1 s headers timeout would last up to 31 s.
  // A createServer option @types/node does not list as a property; Node reads it when listening starts.
  (server as HttpServer & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    CONNECTIONS_CHECK_INTERVAL_MS;
  await app.listen(config.http.port, config.http.host);
  // Right after the mapped routes: /admin is among them even while it answers 404.
  new Logger('AdminApi').log(adminApiStartLine(adminAccess(config.auth), config.auth));
  const exposed = anonymousRemoteBindWarning({
    host: config.http.host,
    authMode: config.auth.mode,
  });
  if (exposed) new Logger('HttpBind').warn({ msg: exposed, host: config.http.host });
  return server.address() as AddressInfo;
}
