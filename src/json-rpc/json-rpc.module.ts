import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ArgumentLimitsService } from './argument-limits.service';
import { ResourceUriLimitsService } from './resource-uri-limits.service';
import { FrameParser } from './frame-parser.service';
import { BatchLimitsService } from './batch-limits.service';
import { AuditTrail } from './audit-trail';
import { JsonRpcErrorMapper } from './json-rpc-error.mapper';
import { JsonRpcExceptionFilter } from './json-rpc-exception.filter';
import { JsonRpcDispatcher } from './json-rpc.dispatcher';
import { McpMethodRegistry } from './mcp-method.registry';
import { ModernResultShaper } from './modern-result.shaper';
import { InputRounds } from './mrtr/input-rounds.service';
import { RequestLog } from '../logging/request-log';

/**
 * Global so that the exception filter bound by @McpMethod() resolves its
 * dependencies in whichever module declares MCP methods.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [
    ArgumentLimitsService,
    ResourceUriLimitsService,
    BatchLimitsService,
    FrameParser,
    McpMethodRegistry,
    JsonRpcDispatcher,
    JsonRpcErrorMapper,
    JsonRpcExceptionFilter,
    AuditTrail,
    ModernResultShaper,
    InputRounds,
    RequestLog,
  ],
  exports: [
    FrameParser,
    McpMethodRegistry,
    JsonRpcDispatcher,
    JsonRpcErrorMapper,
    JsonRpcExceptionFilter,
    AuditTrail,
    ModernResultShaper,
    RequestLog,
  ],
})
export class JsonRpcModule {}
