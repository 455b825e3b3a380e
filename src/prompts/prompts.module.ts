import { Module, OnModuleInit } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ServerCapabilities } from '../lifecycle/server-capabilities.service';
import { ResourcesModule } from '../resources/resources.module';
import { CompletionMethods } from './completion.methods';
import { PromptArgumentCompleter } from './prompt-argument.completer';
import { PromptVisibility } from './prompt-visibility';
import { PromptExplorer } from './prompt.explorer';
import { PromptRegistryModule } from './prompt-registry.module';
import { LedgerModule } from '../ledger/ledger.module';
import { PromptsMethods } from './prompts.methods';
import { PromptsListChangedNotifier } from './prompts-list-changed.notifier';
import { SkillTemplateCompleter } from './skill-template.completer';

/** Prompts (@Prompt methods of @Capability() providers) and argument completion. */
@Module({
  imports: [DiscoveryModule, ResourcesModule, PromptRegistryModule, LedgerModule],
  providers: [
    PromptVisibility,
    PromptExplorer,
    PromptsMethods,
    PromptArgumentCompleter,
    SkillTemplateCompleter,
    CompletionMethods,
    PromptsListChangedNotifier,
  ],
  exports: [PromptRegistryModule],
})
export class PromptsModule implements OnModuleInit {
  constructor(private readonly capabilities: ServerCapabilities) {}

  onModuleInit(): void {
    this.capabilities.declare('prompts', { listChanged: false });
    this.capabilities.declare('completions', {});
  }
}
