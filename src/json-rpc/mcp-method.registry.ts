import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, ExternalContextCreator, MetadataScanner } from '@nestjs/core';
import { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { RPC_CONTEXT_TYPE, MCP_PARAM_ARGS_METADATA } from './json-rpc.constants';
import { McpMethodMarker, McpMethodOptions } from './mcp-method.decorator';
import { McpParamsFactory } from './mcp-params.factory';
import { McpRequestContext } from './mcp-request-context';
import { JsonRpcParams } from './json-rpc.types';

export type McpInvoker = (params: JsonRpcParams, context: McpRequestContext) => Promise<unknown>;

export interface McpMethodEntry {
  options: McpMethodOptions;
  /** Where it was declared, for duplicate reports. */
  origin: string;
  invoke: McpInvoker;
}

/**
 * Discovers @McpMethod handlers at boot and wraps each in Nest's external
 * context (guards -> interceptors -> pipes, filters around), so the pipeline is
 * the same whichever transport delivered the message.
 */
@Injectable()
export class McpMethodRegistry implements OnApplicationBootstrap {
  private readonly logger = new Logger(McpMethodRegistry.name);
  private readonly methods = new Map<string, McpMethodEntry>();
  private readonly paramsFactory = new McpParamsFactory();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly contextCreator: ExternalContextCreator,
  ) {}

  onApplicationBootstrap(): void {
    if (this.methods.size > 0) return;
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        this.register(wrapper, instance as Record<string, unknown>, methodName);
      }
    }
    this.logger.log({ msg: 'MCP methods registered', methods: [...this.methods.keys()].sort() });
  }

  get(method: string): McpMethodEntry | undefined {
    return this.methods.get(method);
  }

  names(): string[] {
    return [...this.methods.keys()];
  }

  private register(
    wrapper: InstanceWrapper,
    instance: Record<string, unknown>,
    methodName: string,
  ): void {
    const callback = instance[methodName];
    if (typeof callback !== 'function') return;
    const options = this.discovery.getMetadataByDecorator(McpMethodMarker, wrapper, methodName);
    if (!options) return;
    const origin = `${instance.constructor.name}.${methodName}`;
    const existing = this.methods.get(options.name);
    if (existing) {
      throw new Error(
        `Duplicate MCP method "${options.name}": declared by ${existing.origin} and ${origin}`,
      );
    }
    const invoke = this.contextCreator.create(
      instance,
      callback as (...args: unknown[]) => unknown,
      methodName,
      MCP_PARAM_ARGS_METADATA,
      this.paramsFactory,
      undefined,
      undefined,
      undefined,
      RPC_CONTEXT_TYPE,
    ) as McpInvoker;
    this.methods.set(options.name, { options, origin, invoke });
  }
}
