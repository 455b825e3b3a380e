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
    checkTool(tool);
    const existing = this.tools.get(tool.name);
    if (existing) throw duplicateName(existing, tool);
    this.tools.set(tool.name, tool);
    this.changed();
  }

  /**
   * Removes `names` and adds `tools` as one change, so that clients hear of a
   * whole batch once; throws, changing nothing, when any added tool is refused.
   */
  replace(names: Iterable<string>, tools: readonly RegisteredTool[]): void {
    const leaving = new Set([...names].filter((name) => this.tools.has(name)));
    const arriving = new Map<string, RegisteredTool>();
    for (const tool of tools) {
      checkTool(tool);
      const existing =
        arriving.get(tool.name) ?? (leaving.has(tool.name) ? undefined : this.tools.get(tool.name));
      if (existing) throw duplicateName(existing, tool);
      arriving.set(tool.name, tool);
    }
    if (leaving.size === 0 && arriving.size === 0) return;
    for (const name of leaving) this.tools.delete(name);
    for (const tool of arriving.values()) this.tools.set(tool.name, tool);
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

function checkTool(tool: RegisteredTool): void {
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
  const maxCost = tool.options.maxCost;
  // A maximum below the estimate would reserve less than the call is charged when it reports nothing.
  if (maxCost !== undefined && (!isValidCost(maxCost) || maxCost < (estimate ?? 0))) {
    throw new Error(
      `Invalid maxCost ${String(maxCost)} for tool "${tool.name}" (${tool.origin}): it must be a finite number >= estimatedCost (${estimate ?? 0})`,
    );
  }
}

function duplicateName(existing: RegisteredTool, tool: RegisteredTool): Error {
  return new Error(
    `Duplicate tool name "${tool.name}": declared by ${existing.origin} and ${tool.origin}`,
  );
}
