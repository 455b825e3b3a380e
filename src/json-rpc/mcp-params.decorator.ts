import { assignMetadata, PipeTransform, Type } from '@nestjs/common';
import { MCP_PARAM_ARGS_METADATA, McpParamType } from './json-rpc.constants';

function paramDecorator(
  type: McpParamType,
  pipes: Array<Type<PipeTransform> | PipeTransform>,
): ParameterDecorator {
  return (target, key, index) => {
    if (key === undefined) return;
    const existing = (Reflect.getMetadata(MCP_PARAM_ARGS_METADATA, target.constructor, key) ??
      {}) as Record<string, unknown>;
    Reflect.defineMetadata(
      MCP_PARAM_ARGS_METADATA,
      assignMetadata(existing, type, index, undefined, ...pipes),
      target.constructor,
      key,
    );
  };
}

/** The request's `params` object (pipes given here run on it, like on an HTTP body). */
export const McpParams = (
  ...pipes: Array<Type<PipeTransform> | PipeTransform>
): ParameterDecorator => paramDecorator(McpParamType.Params, pipes);

/** The McpRequestContext of the current request. */
export const McpContext = (): ParameterDecorator => paramDecorator(McpParamType.Context, []);
