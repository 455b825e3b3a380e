import { Module } from '@nestjs/common';
import { PromptRegistryModule } from '../prompts/prompt-registry.module';
import { ResourcesModule } from '../resources/resources.module';
import { ToolRegistryModule } from '../tools/tool-registry.module';
import { UpstreamPool } from './upstream.pool';
import { UpstreamPromptsPublisher } from './upstream-prompts.publisher';
import { UpstreamRegistryService } from './upstream-registry.service';
import { UpstreamResourcesProvider } from './upstream-resources.provider';
import { UpstreamToolsPublisher } from './upstream-tools.publisher';

/**
 * Upstream MCP servers the gateway fronts: their registry (docs/federation.md),
 * a pool of SDK client connections to them, their tools in the ToolRegistry,
 * and (where a record relays them) their prompts and resources.
 */
@Module({
  imports: [ToolRegistryModule, PromptRegistryModule, ResourcesModule],
  providers: [
    UpstreamRegistryService,
    UpstreamPool,
    UpstreamToolsPublisher,
    UpstreamPromptsPublisher,
    UpstreamResourcesProvider,
  ],
  exports: [
    UpstreamRegistryService,
    UpstreamPool,
    UpstreamToolsPublisher,
    UpstreamPromptsPublisher,
    UpstreamResourcesProvider,
  ],
})
export class UpstreamsModule {}
