import { Injectable, Logger, OnModuleInit, Type } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { HandlerContext } from './handler-context';
import { HandlerOptions, JsonSchemaObject } from './handler-options';
import { CAPABILITY_METADATA, HANDLER_METADATA } from './handler.decorator';
import { RegisteredTool } from './registered-tool';
import { generateDtoSchema } from './schema/dto-schema.generator';
import { validateArguments, validateNoArguments } from './tool-arguments.validator';
import { ToolRegistry } from './tool.registry';

/** Parameter types that carry no schema: a handler typed with them takes a free-form object. */
const UNTYPED = new Set<unknown>([Object, undefined]);

type HandlerMethod = (args: unknown, context: HandlerContext) => unknown;

/**
 * Finds @Handler methods on @Capability providers of every module at boot and
 * registers them as tools. Bad names and duplicates stop the start-up.
 */
@Injectable()
export class HandlerExplorer implements OnModuleInit {
  private readonly logger = new Logger(HandlerExplorer.name);

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly registry: ToolRegistry,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const classRef = wrapper.metatype as unknown;
      if (typeof classRef === 'function' && Reflect.getMetadata(CAPABILITY_METADATA, classRef) === true) {
        this.registerProvider(wrapper);
      }
    }
    this.logger.log({ msg: 'tools registered', count: this.registry.size });
  }

  private registerProvider(wrapper: InstanceWrapper): void {
    const instance = wrapper.instance as Record<string, unknown> | undefined;
    if (!instance) return;
    const prototype = Object.getPrototypeOf(instance) as object;
    for (const methodName of this.scanner.getAllMethodNames(prototype)) {
      const options = Reflect.getMetadata(HANDLER_METADATA, prototype[methodName as keyof object]) as
        | HandlerOptions
        | undefined;
      if (options) this.registry.register(this.toTool(instance, prototype, methodName, options));
    }
  }

  private toTool(
    instance: Record<string, unknown>,
    prototype: object,
    methodName: string,
    options: HandlerOptions,
  ): RegisteredTool {
    const method = (instance[methodName] as HandlerMethod).bind(instance);
    const paramTypes = (Reflect.getMetadata('design:paramtypes', prototype, methodName) ?? []) as unknown[];
    const dto = UNTYPED.has(paramTypes[0]) ? undefined : (paramTypes[0] as Type);
    const name = options.name;
    return {
      name,
      options,
      origin: `${instance.constructor.name}.${methodName}`,
      inputSchema: dto ? generateDtoSchema(dto) : { type: 'object', properties: {}, additionalProperties: false },
      outputSchema: resolveOutputSchema(options.outputSchema),
      validate: (args) => (dto ? validateArguments(name, dto, args) : validateNoArguments(name, args)),
      execute: async (args, context) => method(args, context),
    };
  }
}

function resolveOutputSchema(schema: HandlerOptions['outputSchema']): JsonSchemaObject | undefined {
  if (schema === undefined) return undefined;
  return typeof schema === 'function' ? generateDtoSchema(schema) : schema;
}
