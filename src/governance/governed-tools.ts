import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { RegisteredTool } from '../tools/registered-tool';
import { ToolRegistry } from '../tools/tool.registry';

/**
 * The tool registry, looked up once wherever ToolsModule sits in the graph.
 * Governance reads tools (cost estimate, rate limits, visibility) but does
 * not import ToolsModule: ToolsModule already depends on governance's
 * VisibilityPolicy.
 */
@Injectable()
export class GovernedTools {
  private registry?: ToolRegistry | null;

  constructor(private readonly moduleRef: ModuleRef) {}

  get(name: string): RegisteredTool | undefined {
    return this.lookup()?.get(name);
  }

  private lookup(): ToolRegistry | undefined {
    if (this.registry === undefined) {
      try {
        this.registry = this.moduleRef.get(ToolRegistry, { strict: false });
      } catch {
        // No ToolsModule in this graph (a CLI or test context): there are no tools to govern.
        this.registry = null;
      }
    }
    return this.registry ?? undefined;
  }
}
