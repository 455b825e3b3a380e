import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { CAPABILITY_METADATA } from './handler.decorator';

/** A method of a @Capability() provider carrying one kind of metadata (@Handler, @Prompt). */
export interface CapabilityMethod<T> {
  instance: Record<string, unknown>;
  prototype: object;
  methodName: string;
  options: T;
  /** `Class.method`, for duplicate reports and logs. */
  origin: string;
}

/**
 * Every method of every @Capability() provider in the graph that carries
 * `metadataKey`: the one scan that tools and prompts discovery share.
 */
export function findCapabilityMethods<T>(
  discovery: DiscoveryService,
  scanner: MetadataScanner,
  metadataKey: string,
): Array<CapabilityMethod<T>> {
  const found: Array<CapabilityMethod<T>> = [];
  for (const wrapper of discovery.getProviders()) {
    const classRef = wrapper.metatype as unknown;
    const instance = wrapper.instance as Record<string, unknown> | undefined;
    if (typeof classRef !== 'function' || !instance) continue;
    if (Reflect.getMetadata(CAPABILITY_METADATA, classRef) !== true) continue;
    const prototype = Object.getPrototypeOf(instance) as object;
    for (const methodName of scanner.getAllMethodNames(prototype)) {
      const options = Reflect.getMetadata(metadataKey, prototype[methodName as keyof object]) as
        T | undefined;
      if (options === undefined) continue;
      found.push({
        instance,
        prototype,
        methodName,
        options,
        origin: `${instance.constructor.name}.${methodName}`,
      });
    }
  }
  return found;
}
