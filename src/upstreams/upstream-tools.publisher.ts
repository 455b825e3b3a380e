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
import { UpstreamListRefresher } from './upstream-list.refresher';
import { UpstreamRecord } from './upstream-record';
import { UpstreamRegistryService } from './upstream-registry.service';
import { UpstreamToolNames } from './upstream-tool-names';
import { UPSTREAM_TOOL_LIMITS } from './upstream-tool.limits';
import { UpstreamPool } from './upstream.pool';
import type { UpstreamConnection } from './upstream.connection';

/**
 * Puts the tools of every loaded upstream into the ToolRegistry, so that one
 * tools/list and one governed tools/call serve local and upstream tools alike.
 * Listing runs in the background after bootstrap; a server that fails is
 * logged and its tools are left out, never failing start-up or tools/list.
 * Each server's list is kept for `upstreams.tools_cache_ttl_seconds` (a failed
 * one is retried after `tools_cache_failure_ttl_seconds`) and listed again at
 * once when the upstream sends `notifications/tools/list_changed`.
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
  private readonly refresher: UpstreamListRefresher;
  private readonly watched = new WeakSet<UpstreamConnection>();

  constructor(
    private readonly registry: UpstreamRegistryService,
    private readonly pool: UpstreamPool,
    private readonly tools: ToolRegistry,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.refresher = new UpstreamListRefresher((serverId) => this.relist(serverId), {
      ok: config.upstreams.tools_cache_ttl_seconds * 1000,
      failed: config.upstreams.tools_cache_failure_ttl_seconds * 1000,
    });
  }

  onApplicationBootstrap(): void {
    this.running = this.publishAll().catch((error: unknown) =>
      this.logger.error({ msg: 'upstream tools not published', error: errorChain(error) }),
    );
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    this.refresher.stop();
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
        this.refresher.expireAfter(record.server_id, await this.list(record));
      }
    };
    const workers = Math.min(UPSTREAM_TOOL_LIMITS.listingConcurrency, queue.length);
    await Promise.all(Array.from({ length: workers }, worker));
    this.publish(new Set(this.registry.current.servers.map((record) => record.server_id)));
  }

  /**
   * Lists one server again and replaces its tools (the others keep theirs
   * unless names now collide). Calls made while a listing runs share one
   * further listing, so a flood of requests costs at most two.
   */
  refresh(serverId: string): Promise<void> {
    return this.refresher.request(serverId);
  }

  /**
   * Lists these servers again (a few at once) and drops the tools of those no
   * longer in the registry, each through the same coalescing as `refresh`.
   */
  async refreshServers(serverIds: readonly string[]): Promise<void> {
    const queue = [...serverIds];
    const worker = async (): Promise<void> => {
      for (let serverId = queue.shift(); serverId; serverId = queue.shift()) {
        await this.refresher.request(serverId);
      }
    };
    const workers = Math.min(UPSTREAM_TOOL_LIMITS.listingConcurrency, queue.length);
    await Promise.all(Array.from({ length: workers }, worker));
  }

  /** Whether the server's last tools/list answered (its tools are served). */
  isListed(serverId: string): boolean {
    return this.listed.has(serverId);
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

  /** One listing of one server; publishes only when what it lists changed. */
  private async relist(serverId: string): Promise<boolean> {
    const record = this.registry.current.servers.find((server) => server.server_id === serverId);
    const before = this.listed.get(serverId);
    let ok = false;
    if (!record) {
      this.listed.delete(serverId);
      this.refresher.forget(serverId);
    } else ok = await this.list(record);
    const after = this.listed.get(serverId);
    if (before?.record !== after?.record || !sameTools(before?.tools, after?.tools)) {
      this.publish(new Set([serverId]));
    }
    return ok;
  }

  private async list(record: UpstreamRecord): Promise<boolean> {
    const serverId = record.server_id;
    try {
      const connection = this.pool.connection(serverId);
      if (!connection) throw new Error('no connection (the gateway is stopping)');
      this.watch(connection);
      this.listed.set(serverId, { record, tools: await connection.listTools() });
      return true;
    } catch (error) {
      this.listed.delete(serverId);
      this.logger.warn({
        msg: 'upstream tools left out: tools/list failed',
        server_id: serverId,
        error: errorChain(error),
      });
      return false;
    }
  }

  /** The upstream's tools/list_changed lists that server again (coalesced by the refresher). */
  private watch(connection: UpstreamConnection): void {
    if (this.watched.has(connection)) return;
    this.watched.add(connection);
    const serverId = connection.record.server_id;
    connection.onListChanged((kind) => {
      if (kind !== 'tools' || this.stopped) return;
      this.logger.debug({ msg: 'upstream tools list changed', server_id: serverId });
      void this.refresh(serverId);
    });
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

/** Whether two listings of one server would publish the same entries. */
function sameTools(a: readonly Tool[] | undefined, b: readonly Tool[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}
