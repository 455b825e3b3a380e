import { Logger } from '@nestjs/common';
import { errorChain } from './error-chain';
import type { UpstreamListKind } from './upstream-list-changed';
import { UpstreamListRefresher } from './upstream-list.refresher';
import type { UpstreamRecord } from './upstream-record';
import type { UpstreamRegistryService } from './upstream-registry.service';
import { UPSTREAM_TOOL_LIMITS } from './upstream-tool.limits';
import type { UpstreamConnection } from './upstream.connection';
import type { UpstreamPool } from './upstream.pool';

/** What one relayed list (prompts or resources) needs from its owner. */
export interface UpstreamRelayListsOptions<T> {
  kind: Exclude<UpstreamListKind, 'tools'>;
  /** Whether the record relays this kind at all. */
  relayed: (record: UpstreamRecord) => boolean;
  fetch: (connection: UpstreamConnection) => Promise<T[]>;
  /** Called after a listing changed what is cached (not after one that found the same entries). */
  changed: () => void;
  ttlMs: { ok: number; failed: number };
}

/**
 * The cached prompts or resources of every server that relays them: listed
 * in the background at start, again when the cache entry expires, and at once
 * on the upstream's list_changed (coalesced per server). A server whose
 * listing fails has no entries until a later listing works.
 */
export class UpstreamRelayLists<T> {
  readonly listed = new Map<string, { record: UpstreamRecord; items: T[] }>();
  private readonly logger: Logger;
  private readonly refresher: UpstreamListRefresher;
  private readonly watched = new WeakSet<UpstreamConnection>();
  private stopped = false;

  constructor(
    private readonly registry: UpstreamRegistryService,
    private readonly pool: UpstreamPool,
    private readonly options: UpstreamRelayListsOptions<T>,
  ) {
    this.logger = new Logger(`Upstream ${options.kind}`);
    this.refresher = new UpstreamListRefresher((id) => this.relist(id), options.ttlMs);
  }

  /** Whether any loaded server relays this kind. */
  get anyRelayed(): boolean {
    return this.registry.current.servers.some(this.options.relayed);
  }

  /** Lists every relaying server, a few at once; resolves when all are listed. */
  async start(): Promise<void> {
    const queue = this.registry.current.servers
      .filter(this.options.relayed)
      .map((record) => record.server_id);
    const worker = async (): Promise<void> => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) await this.refresh(id);
    };
    const workers = Math.min(UPSTREAM_TOOL_LIMITS.listingConcurrency, queue.length);
    await Promise.all(Array.from({ length: workers }, worker));
  }

  refresh(serverId: string): Promise<void> {
    return this.refresher.request(serverId);
  }

  stop(): void {
    this.stopped = true;
    this.refresher.stop();
  }

  private async relist(serverId: string): Promise<boolean> {
    const record = this.registry.current.servers.find((server) => server.server_id === serverId);
    const before = this.listed.get(serverId);
    let ok = false;
    if (!record || !this.options.relayed(record)) {
      this.listed.delete(serverId);
      this.refresher.forget(serverId);
    } else ok = await this.list(record);
    const after = this.listed.get(serverId);
    const same =
      before?.record === after?.record &&
      JSON.stringify(before?.items) === JSON.stringify(after?.items);
    if (!same && !this.stopped) this.options.changed();
    return ok;
  }

  private async list(record: UpstreamRecord): Promise<boolean> {
    const serverId = record.server_id;
    try {
      const connection = this.pool.connection(serverId);
      if (!connection) throw new Error('no connection (the gateway is stopping)');
      this.watch(connection);
      this.listed.set(serverId, { record, items: await this.options.fetch(connection) });
      return true;
    } catch (error) {
      this.listed.delete(serverId);
      this.logger.warn({
        msg: `upstream ${this.options.kind} left out: ${this.options.kind}/list failed`,
        server_id: serverId,
        error: errorChain(error),
      });
      return false;
    }
  }

  private watch(connection: UpstreamConnection): void {
    if (this.watched.has(connection)) return;
    this.watched.add(connection);
    const serverId = connection.record.server_id;
    connection.onListChanged((kind) => {
      if (kind === this.options.kind && !this.stopped) void this.refresh(serverId);
    });
  }
}
