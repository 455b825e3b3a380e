import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { RegisteredTool } from '../tools/registered-tool';
import { ToolRegistry } from '../tools/tool.registry';
import { errorChain } from './error-chain';
import { toolNamingOptions } from './tool-naming.options';
import {
  inputSchemaBytes,
  UPSTREAM_ORIGIN_PREFIX,
  upstreamRegisteredTool,
} from './upstream-registered-tool';
import { UpstreamRecord } from './upstream-record';
import { UpstreamRegistryService } from './upstream-registry.service';
import { UpstreamToolNames } from './upstream-tool-names';
import { approvalFor } from './upstream-tool.policy';
import { UPSTREAM_TOOL_LIMITS } from './upstream-tool.limits';
import { UpstreamPool } from './upstream.pool';

/**
 * Puts the tools of every loaded upstream into the ToolRegistry, so that one
 * tools/list and one governed tools/call serve local and upstream tools alike.
 * Listing runs in the background after bootstrap; a server that fails is
 * logged and its tools are left out, never failing start-up or tools/list.
 */
@Injectable()
export class UpstreamToolsPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Upstreams');
  /** What each server's tools/list returned last. */
  private readonly listed = new Map<string, { record: UpstreamRecord; tools: Tool[] }>();
  /** Exposed names this publisher registered, with the server they lead to. */
  private readonly published = new Map<string, string>();
  private stopped = false;
  private running?: Promise<void>;

  constructor(
    private readonly registry: UpstreamRegistryService,
    private readonly pool: UpstreamPool,
    private readonly tools: ToolRegistry,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.running = this.publishAll().catch((error: unknown) =>
      this.logger.error({ msg: 'upstream tools not published', error: errorChain(error) }),
    );
  }

  onApplicationShutdown(): void {
    this.stopped = true;
  }

  /** Resolves when the start-up listing is over (for tests and the CLI). */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** Lists every loaded server, at most a few at once, then publishes them together. */
  async publishAll(): Promise<void> {
    const queue = [...this.registry.current.servers];
    const worker = async (): Promise<void> => {
      for (let record = queue.shift(); record; record = queue.shift()) {
        await this.list(record);
      }
    };
    const workers = Math.min(UPSTREAM_TOOL_LIMITS.listingConcurrency, queue.length);
    await Promise.all(Array.from({ length: workers }, worker));
    this.publish(new Set(this.registry.current.servers.map((record) => record.server_id)));
  }

  /** Lists one server again and replaces its tools (the others keep theirs unless names now collide). */
  async refresh(serverId: string): Promise<void> {
    await this.refreshServers([serverId]);
  }

  /**
   * Lists these servers again (a few at once), drops the tools of those no
   * longer in the registry, and applies it all as one registry change.
   */
  async refreshServers(serverIds: readonly string[]): Promise<void> {
    const records = new Map(this.registry.current.servers.map((s) => [s.server_id, s]));
    const queue = [...serverIds];
    const worker = async (): Promise<void> => {
      for (let serverId = queue.shift(); serverId; serverId = queue.shift()) {
        const record = records.get(serverId);
        if (!record) this.listed.delete(serverId);
        else await this.list(record);
      }
    };
    const workers = Math.min(UPSTREAM_TOOL_LIMITS.listingConcurrency, queue.length);
    await Promise.all(Array.from({ length: workers }, worker));
    this.publish(new Set(serverIds));
  }

  /** The exposed names of one server's published tools, with the upstream's own names. */
  exposedTools(serverId: string): Array<{ name: string; upstreamTool: string }> {
    const prefix = `${UPSTREAM_ORIGIN_PREFIX}${serverId}/`;
    return [...this.published]
      .filter(([, owner]) => owner === serverId)
      .flatMap(([name]) => {
        const origin = this.tools.get(name)?.origin;
        return origin?.startsWith(prefix)
          ? [{ name, upstreamTool: origin.slice(prefix.length) }]
          : [];
      })
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  private async list(record: UpstreamRecord): Promise<void> {
    const serverId = record.server_id;
    try {
      const connection = this.pool.connection(serverId);
      if (!connection) throw new Error('no connection (the gateway is stopping)');
      this.listed.set(serverId, { record, tools: await connection.listTools() });
    } catch (error) {
      this.listed.delete(serverId);
      this.logger.warn({
        msg: 'upstream tools left out: tools/list failed',
        server_id: serverId,
        error: errorChain(error),
      });
    }
  }

  /** Applies the name table in one registry change; names of `changed` servers are registered afresh. */
  private publish(changed: ReadonlySet<string>): void {
    if (this.stopped) return;
    const wanted = this.wantedTools();
    const leaving: string[] = [];
    for (const [name, serverId] of this.published) {
      const next = wanted.get(name);
      const current = this.tools.get(name);
      const kept = next?.serverId === serverId && !changed.has(serverId);
      if (kept && next.tool.origin === current?.origin) wanted.delete(name);
      else leaving.push(name);
    }
    try {
      this.tools.replace(
        leaving,
        [...wanted.values()].map(({ tool }) => tool),
      );
    } catch (error) {
      this.logger.error({ msg: 'upstream tools not published', error: errorChain(error) });
      return;
    }
    for (const name of leaving) this.published.delete(name);
    for (const [name, { serverId }] of wanted) this.published.set(name, serverId);
    this.logger.log({
      msg: 'upstream tools published',
      tools: this.published.size,
      servers: [...this.listed.keys()],
    });
  }

  /** The name table over every listed server, against the local tools, as registry entries. */
  private wantedTools(): Map<string, { serverId: string; tool: RegisteredTool }> {
    const local = this.tools
      .list()
      .filter((tool) => !tool.origin.startsWith(UPSTREAM_ORIGIN_PREFIX));
    const upstreams = [...this.listed.values()].map(({ record, tools }) => ({
      record,
      tools: tools.map((tool) => tool.name),
    }));
    const options = toolNamingOptions(this.config.upstreams);
    const names = UpstreamToolNames.build(upstreams, local, options);
    for (const { serverId, tool, reason } of names.refusals) {
      this.logger.warn({ msg: 'upstream tool not exposed', server_id: serverId, tool, reason });
    }
    const byServer = new Map(
      [...this.listed].map(([serverId, { tools }]) => [
        serverId,
        new Map(tools.map((tool) => [tool.name, tool])),
      ]),
    );
    const wanted = new Map<string, { serverId: string; tool: RegisteredTool }>();
    for (const { name, serverId, tool: toolName } of names.entries()) {
      const listed = this.listed.get(serverId);
      const tool = byServer.get(serverId)?.get(toolName);
      if (!listed || !tool || !this.fits(serverId, tool)) continue;
      if (approvalFor(listed.record, toolName) === 'always') {
        // Forwarding without the approval the record asks for would be worse than leaving it out.
        this.logger.warn({
          msg: 'upstream tool not exposed: approval_policy always is not supported yet',
          server_id: serverId,
          tool: toolName,
        });
        continue;
      }
      const registered = upstreamRegisteredTool(listed.record, tool, name, this.pool);
      wanted.set(name, { serverId, tool: registered });
    }
    return wanted;
  }

  /** A schema cannot be cut like a description: one too large leaves its tool out. */
  private fits(serverId: string, tool: Tool): boolean {
    const bytes = inputSchemaBytes(tool);
    if (bytes <= UPSTREAM_TOOL_LIMITS.maxInputSchemaBytes) return true;
    this.logger.warn({
      msg: 'upstream tool not exposed: inputSchema too large',
      server_id: serverId,
      tool: tool.name,
      bytes,
      max_bytes: UPSTREAM_TOOL_LIMITS.maxInputSchemaBytes,
    });
    return false;
  }
}
