import { Module } from '@nestjs/common';
import { PromptRegistryModule } from '../prompts/prompt-registry.module';
import { ResourcesModule } from '../resources/resources.module';
import { ToolRegistryModule } from '../tools/tool-registry.module';
import { UpstreamAdminController } from './admin/upstream-admin.controller';
import { UpstreamAdminService } from './admin/upstream-admin.service';
import { RegistryDirWatcher } from './registry-dir.watcher';
import { RegistryReplication } from './registry-replication';
import { RegistrySighupListener } from './registry-sighup.listener';
import { UpstreamPool } from './upstream.pool';
import { UpstreamPromptsPublisher } from './upstream-prompts.publisher';
import { upstreamRecordStoreProvider } from './upstream-record-store.provider';
import { UpstreamRegistryReconciler } from './upstream-registry.reconciler';
import { UpstreamRegistryService } from './upstream-registry.service';
import { UpstreamResourcesProvider } from './upstream-resources.provider';
import { UpstreamToolsPublisher } from './upstream-tools.publisher';

/**
 * Upstream MCP servers the gateway fronts: their registry (docs/federation.md)
 * and its changes at run time, a pool of SDK client connections to them, their
 * tools in the ToolRegistry, (where a record relays them) their prompts and
 * resources, and the admin API under /admin/mcp/servers.
 */
@Module({
  imports: [ToolRegistryModule, PromptRegistryModule, ResourcesModule],
  controllers: [UpstreamAdminController],
  providers: [
    upstreamRecordStoreProvider,
    UpstreamRegistryService,
    UpstreamPool,
    UpstreamToolsPublisher,
    UpstreamPromptsPublisher,
    UpstreamResourcesProvider,
    UpstreamRegistryReconciler,
    RegistryDirWatcher,
    RegistrySighupListener,
    RegistryReplication,
    UpstreamAdminService,
  ],
  exports: [
    UpstreamRegistryService,
    UpstreamPool,
    UpstreamToolsPublisher,
    UpstreamPromptsPublisher,
    UpstreamResourcesProvider,
    UpstreamRegistryReconciler,
  ],
})
export class UpstreamsModule {}
