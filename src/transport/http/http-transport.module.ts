import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { HealthModule } from '../../health/health.module';
import { ToolRegistryModule } from '../../tools/tool-registry.module';
import { ReplicaHeartbeat } from '../../session/shared/replica-heartbeat';
import { ConnectionCaps } from './connection-caps';
import { GracefulDrain } from './graceful-drain';
import { HttpSessionLookup } from './http-session.lookup';
import { IdleConnectionsDrain } from './idle-connections.drain';
import { LegacySseController } from './legacy-sse.controller';
import { McpFrontDoor } from './mcp-front-door';
import { McpPostHandler } from './mcp-post.handler';
import { StatelessPostHandler } from './stateless-post.handler';
import { OriginMiddleware } from './origin.middleware';
import { PostStreamFailover } from './post-stream-failover';
import { PostStreamRecords } from './post-stream-records';
import { PostStreamRelay } from './post-stream-relay';
import { RawBodyMiddleware } from './raw-body.middleware';
import { SseHub } from './sse.hub';
import { SharedStandaloneLog } from './shared-standalone-log';
import { SseSessions } from './sse-sessions';
import { StreamableHttpController } from './streamable-http.controller';

/** MCP over HTTP: Streamable HTTP on /mcp and the legacy HTTP+SSE pair. */
@Module({
  imports: [HealthModule, ToolRegistryModule],
  controllers: [StreamableHttpController, LegacySseController],
  providers: [
    HttpSessionLookup,
    SseHub,
    SseSessions,
    SharedStandaloneLog,
    // Only HTTP sessions are shared, so only an HTTP gateway tells the others it is alive.
    ReplicaHeartbeat,
    PostStreamRecords,
    PostStreamRelay,
    PostStreamFailover,
    OriginMiddleware,
    RawBodyMiddleware,
    McpPostHandler,
    StatelessPostHandler,
    McpFrontDoor,
    ConnectionCaps,
    IdleConnectionsDrain,
    GracefulDrain,
  ],
  exports: [SseHub],
})
export class HttpTransportModule implements NestModule {
  /** POST /mcp never reaches Express: McpFrontDoor serves it with the same two steps. */
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(OriginMiddleware).forRoutes(StreamableHttpController, LegacySseController);
    consumer.apply(RawBodyMiddleware).forRoutes({ path: 'messages', method: RequestMethod.POST });
  }
}
