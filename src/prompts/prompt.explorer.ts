import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { CAPABILITY_METADATA } from '../tools/handler.decorator';
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
    for (const wrapper of this.discovery.getProviders()) {
      const classRef = wrapper.metatype as unknown;
      if (
        typeof classRef === 'function' &&
        Reflect.getMetadata(CAPABILITY_METADATA, classRef) === true
      ) {
        this.registerProvider(wrapper);
      }
    }
    this.logger.log({ msg: 'prompts registered', count: this.registry.size });
  }

  private registerProvider(wrapper: InstanceWrapper): void {
    const instance = wrapper.instance as Record<string, unknown> | undefined;
    if (!instance) return;
    const prototype = Object.getPrototypeOf(instance) as object;
    for (const methodName of this.scanner.getAllMethodNames(prototype)) {
      const options = Reflect.getMetadata(
        PROMPT_METADATA,
        prototype[methodName as keyof object],
      ) as PromptOptions | undefined;
      if (!options) continue;
      const method = (instance[methodName] as PromptMethod).bind(instance);
      this.registry.register({
        name: options.name,
        options,
        origin: `${instance.constructor.name}.${methodName}`,
        render: async (args, context) => method(args, context),
      });
    }
  }
}
