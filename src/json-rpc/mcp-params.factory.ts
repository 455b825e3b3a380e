import { ParamsFactory } from '@nestjs/core/helpers/external-context-creator.js';
import { McpParamType } from './json-rpc.constants';

/** Resolves @McpParams() / @McpContext() from the invocation args `[params, context]`. */
export class McpParamsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, _data: unknown, args: unknown[]): unknown {
    switch (type as McpParamType) {
      case McpParamType.Params:
        return args[0];
      case McpParamType.Context:
        return args[1];
      default:
        return undefined;
    }
  }
}
