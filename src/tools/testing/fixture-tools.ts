import { Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { DEFAULT_CONFIG } from '../../config/config.defaults';
import { JsonRpcErrorMapper } from '../../json-rpc/json-rpc-error.mapper';
import { HandlerExplorer } from '../handler.explorer';
import { ToolRegistry } from '../tool.registry';

/**
 * The tools of `capabilities` (the e2e suites' fixture capabilities among
 * them) as the real HandlerExplorer registers them at boot: DTO schemas,
 * validators and options exactly as a gateway would serve them.
 */
export async function fixtureToolRegistry(...capabilities: Type[]): Promise<ToolRegistry> {
  const app = await Test.createTestingModule({
    imports: [DiscoveryModule],
    providers: [
      ToolRegistry,
      HandlerExplorer,
      ...capabilities,
      // A capability's own MCP methods bind the JSON-RPC filter, which Nest builds with them.
      JsonRpcErrorMapper,
      { provide: GATEWAY_CONFIG, useValue: DEFAULT_CONFIG },
    ],
  }).compile();
  app.useLogger(false);
  await app.init();
  return app.get(ToolRegistry);
}
