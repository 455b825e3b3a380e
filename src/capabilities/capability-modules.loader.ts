import { DynamicModule, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { GatewayConfig } from '../config/gateway-config';
import { DemoCapabilityModule } from './demo/demo-capability.module';

type CapabilityModule = Type | DynamicModule;

/**
 * The capability modules of this gateway: the bundled demo pack when enabled,
 * then each compiled module file named in `capabilities.modules`. A file that
 * is missing or exports no Nest module stops the start-up with its path.
 */
export function loadCapabilityModules(
  config: GatewayConfig,
  cwd = process.cwd(),
): CapabilityModule[] {
  const modules: CapabilityModule[] = config.capabilities.demo_pack ? [DemoCapabilityModule] : [];
  for (const file of config.capabilities.modules) modules.push(loadModuleFile(resolve(cwd, file)));
  return modules;
}

function loadModuleFile(path: string): CapabilityModule {
  if (!existsSync(path)) throw new Error(`capabilities.modules: ${path} does not exist`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- operator-named plugin files are loaded at run time by design
  const exported = require(path) as Record<string, unknown>;
  const candidates = [exported.default, ...Object.values(exported)];
  const found = candidates.find(isNestModule);
  if (!found) {
    throw new Error(
      `capabilities.modules: ${path} exports no Nest module (a class decorated with @Module)`,
    );
  }
  return found;
}

function isNestModule(value: unknown): value is Type {
  if (typeof value !== 'function') return false;
  return Object.values(MODULE_METADATA).some((key) => Reflect.getMetadataKeys(value).includes(key));
}
