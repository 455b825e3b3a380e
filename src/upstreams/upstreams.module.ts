import { Module } from '@nestjs/common';
import { UpstreamPool } from './upstream.pool';
import { UpstreamRegistryService } from './upstream-registry.service';

/**
 * Upstream MCP servers the gateway fronts: their registry (docs/federation.md)
 * and a pool of SDK client connections to them; their tools are not listed yet.
 */
@Module({
  providers: [UpstreamRegistryService, UpstreamPool],
  exports: [UpstreamRegistryService, UpstreamPool],
})
export class UpstreamsModule {}
