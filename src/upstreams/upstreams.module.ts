import { Module } from '@nestjs/common';
import { UpstreamRegistryService } from './upstream-registry.service';

/**
 * Upstream MCP servers the gateway fronts. This step loads and validates
 * their registry (docs/federation.md); connections come in later steps.
 */
@Module({
  providers: [UpstreamRegistryService],
  exports: [UpstreamRegistryService],
})
export class UpstreamsModule {}
