import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { JsonRpcDispatcher } from '../json-rpc/json-rpc.dispatcher';
import { isFailure, JsonRpcResponse } from '../json-rpc/json-rpc.types';
import { LATEST_PROTOCOL_VERSION } from '../json-rpc/protocol-version';
import { GatewayLogger } from '../logging/gateway-logger';
import { SessionRegistry } from '../session/session.registry';
import { UpstreamToolsPublisher } from '../upstreams/upstream-tools.publisher';

export type ListOutcome<T> =
  { kind: 'items'; items: T[] } | { kind: 'unsupported'; method: string };

/**
 * Lists what a client would see, by asking the gateway itself: the listing
 * method runs through the real dispatcher and pipeline for a local `cli`
 * client, following cursors to the end.
 */
export async function listThroughGateway<T>(
  config: GatewayConfig,
  method: string,
  key: string,
): Promise<ListOutcome<T>> {
  const app: INestApplicationContext = await NestFactory.createApplicationContext(
    AppModule.forRoot({ transport: 'none', config }),
    { logger: new GatewayLogger({ level: 'warn', format: config.logging.format }) },
  );
  try {
    // Upstream tools are listed in the background after start; the CLI shows them too.
    await app.get(UpstreamToolsPublisher).settled();
    const sessions = app.get(SessionRegistry);
    const dispatcher = app.get(JsonRpcDispatcher);
    const session = sessions.create('stdio', 'cli');
    session.protocolVersion = LATEST_PROTOCOL_VERSION;
    session.initialized = true;
    const items: T[] = [];
    let cursor: string | undefined;
    let page = 0;
    do {
      const params = cursor === undefined ? {} : { cursor };
      const response = (await dispatcher.dispatchFrame(
        JSON.stringify({ jsonrpc: '2.0', id: ++page, method, params }),
        { session },
      )) as JsonRpcResponse;
      if (isFailure(response)) {
        if (response.error.code === Number(ErrorCode.MethodNotFound))
          return { kind: 'unsupported', method };
        throw new Error(`${method} failed: ${response.error.message}`);
      }
      const result = response.result as Record<string, unknown>;
      items.push(...((result[key] as T[] | undefined) ?? []));
      cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
    } while (cursor !== undefined);
    return { kind: 'items', items };
  } finally {
    await app.close();
  }
}
