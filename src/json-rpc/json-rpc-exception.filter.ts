import { ArgumentsHost, Catch, ExceptionFilter, Injectable } from '@nestjs/common';
import { JsonRpcErrorMapper } from './json-rpc-error.mapper';
import { McpRequestContext } from './mcp-request-context';
import { JsonRpcErrorObject } from './json-rpc.types';

/** What the filter hands back to the dispatcher in place of a result. */
export class RpcErrorReply {
  constructor(readonly error: JsonRpcErrorObject) {}
}

/** Maps every exception of an MCP method (guards, pipes, interceptors, handler) to a JSON-RPC error. */
@Catch()
@Injectable()
export class JsonRpcExceptionFilter implements ExceptionFilter {
  constructor(private readonly mapper: JsonRpcErrorMapper) {}

  catch(exception: unknown, host: ArgumentsHost): RpcErrorReply {
    const context = host.switchToRpc().getContext<McpRequestContext | undefined>();
    return new RpcErrorReply(this.mapper.toErrorObject(exception, { method: context?.method }));
  }
}
