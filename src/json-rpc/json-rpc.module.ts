import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ArgumentLimitsService } from './argument-limits.service';
import { BatchLimitsService } from './batch-limits.service';
import { CallObservers } from './call-observers';
import { JsonRpcErrorMapper } from './json-rpc-error.mapper';
import { JsonRpcExceptionFilter } from './json-rpc-exception.filter';
import { JsonRpcDispatcher } from './json-rpc.dispatcher';
import { SoleCallProbe } from './sole-call.probe';
import { McpMethodRegistry } from './mcp-method.registry';

/**
 * Global so that the exception filter bound by @McpMethod() resolves its
 * dependencies in whichever module declares MCP methods.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [
    ArgumentLimitsService,
    BatchLimitsService,
    McpMethodRegistry,
    JsonRpcDispatcher,
    JsonRpcErrorMapper,
    JsonRpcExceptionFilter,
    CallObservers,
    SoleCallProbe,
  ],
  exports: [
    McpMethodRegistry,
    JsonRpcDispatcher,
    JsonRpcErrorMapper,
    JsonRpcExceptionFilter,
    CallObservers,
    SoleCallProbe,
  ],
})
export class JsonRpcModule {}
