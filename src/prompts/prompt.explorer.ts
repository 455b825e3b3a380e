import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { findCapabilityMethods } from '../tools/capability-methods';
import { PROMPT_METADATA, PromptMethod } from './prompt.decorator';
import { PromptOptions } from './prompt-options';
import { PromptRegistry } from './prompt.registry';

/**
 * Finds @Prompt methods on @Capability() providers of every module at boot and
 * registers them. Bad names and duplicates stop the start-up.
 */
@Injectable()
export class PromptExplorer implements OnModuleInit {
  private readonly logger = new Logger(PromptExplorer.name);

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly registry: PromptRegistry,
  ) {}

  onModuleInit(): void {
    const methods = findCapabilityMethods<PromptOptions>(
      this.discovery,
      this.scanner,
      PROMPT_METADATA,
    );
    for (const { instance, methodName, options, origin } of methods) {
      const method = (instance[methodName] as PromptMethod).bind(instance);
      this.registry.register({
        name: options.name,
        options,
        origin,
        render: async (args, context) => method(args, context),
      });
    }
    this.logger.log({ msg: 'prompts registered', count: this.registry.size });
  }
}
