/** Context type reported by ExecutionContext.getType() for MCP method invocations. */
export const RPC_CONTEXT_TYPE = 'rpc';

/**
 * Param metadata is stored under Nest's own route-arguments key (the same key
 * @nestjs/microservices uses) so that the scanner registers param-level pipes.
 */
export { ROUTE_ARGS_METADATA as MCP_PARAM_ARGS_METADATA } from '@nestjs/common/constants';

/**
 * Numbers as in @nestjs/microservices: Nest's pipes consumer reports type 3 as
 * 'body', so ValidationPipe validates @McpParams() like an HTTP body.
 */
export enum McpParamType {
  Params = 3,
  Context = 6,
}
