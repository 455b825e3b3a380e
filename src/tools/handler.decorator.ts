import { SetMetadata } from '@nestjs/common';
import { HandlerOptions } from './handler-options';

/*
 * Plain namespaced string keys rather than DiscoveryService.createDecorator's
 * random ones: capability modules are compiled apart from the gateway (see
 * `capabilities.modules`) and may load another copy of this file, whose
 * decorators must still be recognised.
 */
export const CAPABILITY_METADATA = 'mcp:capability';
export const HANDLER_METADATA = 'mcp:handler';

/** Marks a provider whose methods may be @Handler tools (only marked providers are scanned). */
export const Capability = (): ClassDecorator => SetMetadata(CAPABILITY_METADATA, true);

/**
 * Exposes a provider method as an MCP tool. The method's first parameter is a
 * class-validator DTO (its type gives the input schema); the second is the
 * HandlerContext.
 */
export const Handler = (options: HandlerOptions): MethodDecorator =>
  SetMetadata(HANDLER_METADATA, options);
