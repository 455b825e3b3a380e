import { Inject, Injectable, Optional } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { SKILL_SCHEME } from '../resources/skill-uri';
import { RegisteredTool } from './registered-tool';
import { SkillTextSource } from './skill-text-source';
import { ToolRegistry } from './tool.registry';
import {
  META_ESTIMATED_COST,
  META_MAX_DURATION_SECONDS,
  META_TIMEOUT_SECONDS,
  SKILL_TEXT_SOURCE,
} from './tools.constants';

export interface ToolListEntry {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  _meta: Record<string, unknown>;
}

/** One tool's list entry, and for a tool linked to a skill the entry that carries its text. */
export interface CachedToolEntry {
  /** The description without any skill text: what a client that may not read the skill sees. */
  entry: ToolListEntry;
  withSkill?: { skillUri: string; entry: ToolListEntry };
}

/**
 * The `tools/list` entries, built once per registry (and skill catalog)
 * version instead of on every request. Skill text is kept apart, so the
 * list can hand it only to a client that may read that skill; the call
 * limits, which depend on the client and the rules in force, are added per
 * call (ToolLimitHints).
 */
@Injectable()
export class ToolListCache {
  private cached?: { key: string; entries: Map<string, CachedToolEntry> };

  constructor(
    private readonly registry: ToolRegistry,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Optional() @Inject(SKILL_TEXT_SOURCE) private readonly skills?: SkillTextSource,
  ) {}

  /** Entries in registry order, each shared by every client that may see the tool. */
  entries(): Map<string, CachedToolEntry> {
    const key = `${this.registry.version}:${this.skills?.version ?? 0}`;
    if (this.cached?.key !== key) {
      const entries = new Map(this.registry.list().map((tool) => [tool.name, this.toEntry(tool)]));
      this.cached = { key, entries };
    }
    return this.cached.entries;
  }

  private toEntry(tool: RegisteredTool): CachedToolEntry {
    const { options } = tool;
    const entry: ToolListEntry = {
      name: tool.name,
      description: options.description,
      inputSchema: tool.inputSchema,
      _meta: this.governanceHints(tool),
    };
    if (options.title !== undefined) entry.title = options.title;
    if (tool.outputSchema !== undefined) entry.outputSchema = tool.outputSchema;
    if (options.annotations !== undefined) entry.annotations = { ...options.annotations };
    const skillRef = options.skill;
    const body = skillRef === undefined ? undefined : this.skills?.skillBody(skillRef);
    if (skillRef === undefined || body === undefined) return { entry };
    const description = `${options.description}\n\n${body.trim()}`;
    return {
      entry,
      withSkill: { skillUri: `${SKILL_SCHEME}${skillRef}`, entry: { ...entry, description } },
    };
  }

  /** What every client may plan around: cost and time (call limits are per client). */
  private governanceHints(tool: RegisteredTool): Record<string, unknown> {
    const { options } = tool;
    const meta: Record<string, unknown> = {
      [META_TIMEOUT_SECONDS]: options.timeoutSeconds ?? this.config.tools.default_timeout_seconds,
    };
    if (options.estimatedCost !== undefined) meta[META_ESTIMATED_COST] = options.estimatedCost;
    if (options.maxDurationSeconds !== undefined)
      meta[META_MAX_DURATION_SECONDS] = options.maxDurationSeconds;
    return meta;
  }
}
