import { Module, OnModuleInit } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ServerCapabilities } from '../lifecycle/server-capabilities.service';
import { ResourcesModule } from '../resources/resources.module';
import { HandlerExplorer } from './handler.explorer';
import { ToolLimitHints } from './tool-limit-hints';
import { ToolListCache } from './tool-list.cache';
import { ToolVisibility } from './tool-visibility';
import { ToolExecutor } from './tool.executor';
import { ToolRegistryModule } from './tool-registry.module';
import { LedgerModule } from '../ledger/ledger.module';
import { ToolsListChangedNotifier } from './tools-list-changed.notifier';
import { ToolsMethods } from './tools.methods';

@Module({
  imports: [DiscoveryModule, ResourcesModule, ToolRegistryModule, LedgerModule],
  providers: [
    HandlerExplorer,
    ToolListCache,
    ToolVisibility,
    ToolLimitHints,
    ToolExecutor,
    ToolsMethods,
    ToolsListChangedNotifier,
  ],
  exports: [ToolRegistryModule, ToolVisibility],
})
export class ToolsModule implements OnModuleInit {
  constructor(private readonly capabilities: ServerCapabilities) {}

  onModuleInit(): void {
    this.capabilities.declare('tools', { listChanged: true });
  }
}
