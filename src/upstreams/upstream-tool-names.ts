import type { RegisteredTool } from '../tools/registered-tool';
import { exposedToolName } from './exposed-tool-name';
import { UpstreamRecord } from './upstream-record';
import { isToolExposed } from './upstream-tool.policy';
import { TOOL_NAMING_LIMITS } from './tool-naming.limits';
import { ToolNamingOptions } from './tool-naming.options';

/** One upstream server and the tool names its tools/list returned. */
export interface UpstreamToolList {
  record: UpstreamRecord;
  tools: readonly string[];
}

/** Where an exposed name leads: the server and the upstream's own tool name. */
export interface UpstreamToolTarget {
  serverId: string;
  tool: string;
}

/** One row of the name table, as the admin API shows it. */
export interface ExposedUpstreamTool extends UpstreamToolTarget {
  name: string;
  /** True when the joined name was over 64 characters and carries a hash. */
  shortened: boolean;
}

/** An upstream tool (or a whole server when `tool` is absent) left out, and why. */
export interface ToolNameRefusal {
  serverId: string;
  tool?: string;
  reason: string;
}

/**
 * The exposed names of upstream tools beside the gateway's local ones. Only
 * tools the record allows are named; a name claimed twice is refused for
 * every upstream claimant (a local tool keeps it), so a change in one server's
 * list can never send calls meant for one server to another. Lookups go by
 * the table, never by splitting a name at the separator.
 */
export class UpstreamToolNames {
  private constructor(
    private readonly byName: ReadonlyMap<string, ExposedUpstreamTool>,
    readonly refusals: readonly ToolNameRefusal[],
  ) {}

  /** `isExposed` picks the names to expose (the record's allowed/denied tools unless told otherwise: relayed prompts are all named). */
  static build(
    upstreams: readonly UpstreamToolList[],
    localTools: Iterable<Pick<RegisteredTool, 'name' | 'origin'>>,
    options: ToolNamingOptions,
    isExposed: (record: UpstreamRecord, name: string) => boolean = isToolExposed,
  ): UpstreamToolNames {
    const refusals: ToolNameRefusal[] = [];
    const claims = new Map<string, ExposedUpstreamTool[]>();
    for (const upstream of upstreams) {
      for (const claim of namedTools(upstream, options, refusals, isExposed)) {
        const existing = claims.get(claim.name);
        if (existing) existing.push(claim);
        else claims.set(claim.name, [claim]);
      }
    }
    const local = new Map<string, string>();
    for (const tool of localTools) local.set(tool.name, tool.origin);
    const byName = new Map<string, ExposedUpstreamTool>();
    for (const [name, claimants] of claims) {
      const localOrigin = local.get(name);
      if (localOrigin !== undefined) {
        for (const claim of claimants) {
          const reason = `exposed name "${name}" is a local tool (${localOrigin}); ${describe(claim)} is not exposed`;
          refusals.push({ serverId: claim.serverId, tool: claim.tool, reason });
        }
      } else if (claimants.length > 1) {
        for (const claim of claimants) {
          const others = claimants.filter((other) => other !== claim).map(describe);
          const reason = `exposed name "${name}" is claimed by ${describe(claim)} and ${others.join(' and ')}; none of them is exposed`;
          refusals.push({ serverId: claim.serverId, tool: claim.tool, reason });
        }
      } else {
        byName.set(name, claimants[0]);
      }
    }
    return new UpstreamToolNames(byName, refusals);
  }

  get size(): number {
    return this.byName.size;
  }

  lookup(exposedName: string): UpstreamToolTarget | undefined {
    const entry = this.byName.get(exposedName);
    return entry && { serverId: entry.serverId, tool: entry.tool };
  }

  entries(): ExposedUpstreamTool[] {
    return [...this.byName.values()].map((entry) => ({ ...entry }));
  }
}

/** The allowed tools of one upstream with their exposed names; refusals go to `refusals`. */
function namedTools(
  { record, tools }: UpstreamToolList,
  options: ToolNamingOptions,
  refusals: ToolNameRefusal[],
  isExposed: (record: UpstreamRecord, name: string) => boolean,
): ExposedUpstreamTool[] {
  const serverId = record.server_id;
  const max = TOOL_NAMING_LIMITS.maxToolsPerUpstream;
  if (tools.length > max) {
    const reason = `upstream "${serverId}" lists ${tools.length} tools, more than the limit of ${max}; none of its tools is exposed`;
    refusals.push({ serverId, reason });
    return [];
  }
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const tool of tools) (seen.has(tool) ? repeated : seen).add(tool);
  const named: ExposedUpstreamTool[] = [];
  for (const tool of seen) {
    if (!isExposed(record, tool)) continue;
    const exposed = exposedToolName(record.tool_namespace, tool, options);
    if (!exposed.ok) {
      refusals.push({ serverId, tool, reason: `upstream "${serverId}": ${exposed.reason}` });
    } else if (repeated.has(tool)) {
      // Two entries may carry different schemas; picking one would be a guess.
      const reason = `upstream "${serverId}" lists tool "${tool}" more than once; it is not exposed`;
      refusals.push({ serverId, tool, reason });
    } else {
      named.push({ name: exposed.name, serverId, tool, shortened: exposed.shortened });
    }
  }
  return named;
}

/** Only for names that passed exposedToolName, so they need no escaping. */
function describe(claim: ExposedUpstreamTool): string {
  return `upstream "${claim.serverId}" tool "${claim.tool}"`;
}
