import { Injectable } from '@nestjs/common';
import { RegisteredTool, TOOL_NAME_PATTERN } from './registered-tool';
import { isValidCost } from './tool-cost';

export type ToolRegistryListener = (version: number) => void;

/**
 * Every tool the gateway serves, in registration order. Each change bumps
 * `version`, which list caches compare against and listeners hear about.
 */
@Injectable()
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly listeners = new Set<ToolRegistryListener>();
  private currentVersion = 0;

  get version(): number {
    return this.currentVersion;
  }

  get size(): number {
    return this.tools.size;
  }

  register(tool: RegisteredTool): void {
    if (!TOOL_NAME_PATTERN.test(tool.name)) {
      throw new Error(
        `Invalid tool name "${tool.name}" (${tool.origin}): names must match ${TOOL_NAME_PATTERN.source}`,
      );
    }
    const estimate = tool.options.estimatedCost;
    if (estimate !== undefined && !isValidCost(estimate)) {
      // A negative estimate would credit the budget, NaN would pass every check and break the ledger row.
      throw new Error(
        `Invalid estimatedCost ${String(estimate)} for tool "${tool.name}" (${tool.origin}): it must be a finite number >= 0`,
      );
    }
    const existing = this.tools.get(tool.name);
    if (existing) {
      throw new Error(
        `Duplicate tool name "${tool.name}": declared by ${existing.origin} and ${tool.origin}`,
      );
    }
    this.tools.set(tool.name, tool);
    this.changed();
  }

  unregister(name: string): boolean {
    const removed = this.tools.delete(name);
    if (removed) this.changed();
    return removed;
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  list(): RegisteredTool[] {
    return [...this.tools.values()];
  }

  /** Returns the unsubscribe function. */
  onChange(listener: ToolRegistryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.currentVersion++;
    for (const listener of this.listeners) listener(this.currentVersion);
  }
}
