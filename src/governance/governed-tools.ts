import { Injectable } from '@nestjs/common';
import { RegisteredTool } from '../tools/registered-tool';
import { ToolRegistry } from '../tools/tool.registry';

/**
 * What the governance guards read of a tool (cost estimate, rate limits, visibility).
 * Exported by governance because the guards are built in each governed
 * method's own module, which need not see the registry.
 */
@Injectable()
export class GovernedTools {
  constructor(private readonly registry: ToolRegistry) {}

  get(name: string): RegisteredTool | undefined {
    return this.registry.get(name);
  }
}
