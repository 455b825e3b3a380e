import { Module, OnModuleInit } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ServerCapabilities } from '../lifecycle/server-capabilities.service';
import { ResourcesModule } from '../resources/resources.module';
import { HandlerExplorer } from './handler.explorer';
import { ToolLimitHints } from './tool-limit-hints';
import { ToolListCache } from './tool-list.cache';
import { ToolVisibility } from './tool-visibility';
import { ToolExecutionModule } from './tool-execution.module';
import { TasksModule } from '../tasks/tasks.module';
import { ToolRegistryModule } from './tool-registry.module';
import { LedgerModule } from '../ledger/ledger.module';
import { ToolsListChangedNotifier } from './tools-list-changed.notifier';
import { ToolsMethods } from './tools.methods';

@Module({
  imports: [
    DiscoveryModule,
    ResourcesModule,
    ToolRegistryModule,
    ToolExecutionModule,
    TasksModule,
    LedgerModule,
  ],
  providers: [
    HandlerExplorer,
    ToolListCache,
    ToolVisibility,
    ToolLimitHints,
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
