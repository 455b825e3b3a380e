import { Injectable, Logger, OnModuleInit, Type } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { HandlerContext } from './handler-context';
import { HandlerOptions, JsonSchemaObject } from './handler-options';
import { findCapabilityMethods } from './capability-methods';
import { HANDLER_METADATA } from './handler.decorator';
import { RegisteredTool } from './registered-tool';
import { generateDtoSchema } from './schema/dto-schema.generator';
import { compileSchemaExactCheck } from './schema-exact-dto.check';
import { compileArgumentsSchema } from './json-schema-arguments.validator';
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
    const methods = findCapabilityMethods<HandlerOptions>(
      this.discovery,
      this.scanner,
      HANDLER_METADATA,
    );
    for (const { instance, prototype, methodName, options } of methods) {
      this.registry.register(this.toTool(instance, prototype, methodName, options));
    }
    this.logger.log({ msg: 'tools registered', count: this.registry.size });
  }

  private toTool(
    instance: Record<string, unknown>,
    prototype: object,
    methodName: string,
    options: HandlerOptions,
  ): RegisteredTool {
    const method = (instance[methodName] as HandlerMethod).bind(instance);
    const paramTypes = (Reflect.getMetadata('design:paramtypes', prototype, methodName) ??
      []) as unknown[];
    const dto = UNTYPED.has(paramTypes[0]) ? undefined : (paramTypes[0] as Type);
    const name = options.name;
    const origin = `${instance.constructor.name}.${methodName}`;
    const input = options.inputSchema
      ? handWrittenInput(options, origin, dto)
      : dtoInput(name, dto);
    return {
      name,
      options,
      origin,
      inputSchema: input.schema,
      outputSchema: resolveOutputSchema(options.outputSchema),
      validate: input.validate,
      execute: method,
    };
  }
}

interface ToolInput {
  schema: JsonSchemaObject;
  validate: RegisteredTool['validate'];
}

/** The usual case: the schema is generated from the handler's DTO (none: no arguments). */
function dtoInput(name: string, dto: Type | undefined): ToolInput {
  if (!dto) {
    return {
      schema: { type: 'object', properties: {}, additionalProperties: false },
      validate: (args) => validateNoArguments(name, args),
    };
  }
  const schema = generateDtoSchema(dto);
  const accepts = compileSchemaExactCheck(dto, schema);
  return { schema, validate: (args) => validateArguments(name, dto, args, accepts) };
}

/** HandlerOptions.inputSchema: published as written, checked by Ajv; a DTO as well would be ambiguous. */
function handWrittenInput(
  options: HandlerOptions,
  origin: string,
  dto: Type | undefined,
): ToolInput {
  if (dto) {
    throw new Error(
      `Tool "${options.name}" (${origin}) declares an inputSchema and takes a ${dto.name} DTO: use one or the other`,
    );
  }
  const schema = options.inputSchema!;
  return { schema, validate: compileArgumentsSchema(options.name, schema) };
}

function resolveOutputSchema(schema: HandlerOptions['outputSchema']): JsonSchemaObject | undefined {
  if (schema === undefined) return undefined;
  return typeof schema === 'function' ? generateDtoSchema(schema) : schema;
}
