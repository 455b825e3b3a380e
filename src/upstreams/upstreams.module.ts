import { Module } from '@nestjs/common';
import { ToolRegistryModule } from '../tools/tool-registry.module';
import { UpstreamPool } from './upstream.pool';
import { UpstreamRegistryService } from './upstream-registry.service';
import { UpstreamToolsPublisher } from './upstream-tools.publisher';

/**
 * Upstream MCP servers the gateway fronts: their registry (docs/federation.md),
 * a pool of SDK client connections to them, and their tools in the ToolRegistry.
 */
@Module({
  imports: [ToolRegistryModule],
  providers: [UpstreamRegistryService, UpstreamPool, UpstreamToolsPublisher],
  exports: [UpstreamRegistryService, UpstreamPool, UpstreamToolsPublisher],
})
export class UpstreamsModule {}
