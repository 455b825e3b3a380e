import {
  Inject,
  Injectable,
  Logger,
  OnApplicationShutdown,
  OnModuleInit,
  Optional,
} from '@nestjs/common';
import * as path from 'node:path';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { errorChain } from './error-chain';
import { diffRecords, recordHash, RegistryDiff } from './registry-diff';
import { SecretFilePolicy, secretFilePolicy } from './secret-file.reader';
import { scanRegistry, StoredRegistryFile } from './registry.scanner';
import { RegistryDirStore } from './registry-dir.store';
import { UpstreamRegistry } from './upstream-registry';
import { UPSTREAM_RECORD_STORE, UpstreamRecordStore } from './upstream-record.store';

/** What made the registry scan again, for logs. */
export type RegistryTrigger = 'boot' | 'file' | 'sighup' | 'admin' | 'replica' | 'poll';

/** A new snapshot that changed the server set, with what changed. */
export interface RegistryChange {
  previous: UpstreamRegistry;
  current: UpstreamRegistry;
  diff: RegistryDiff;
  trigger: RegistryTrigger;
}

export type RegistryListener = (change: RegistryChange) => void;

/** Why the snapshot in force may be stale: the last scan failed. */
export interface RegistryDegraded {
  reason: string;
  since: string;
  trigger: RegistryTrigger;
}

/**
 * Holds the upstream registry snapshot in force. Scans at start and again on
 * request (file watch, SIGHUP, admin API, another replica); a scan replaces the
 * snapshot whole, so readers never see half of one, and listeners hear of every
 * change of the server set. A scan that fails keeps the old snapshot and marks
 * the registry degraded until one succeeds.
 */
@Injectable()
export class UpstreamRegistryService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Upstreams');
  private readonly store: UpstreamRecordStore;
  private readonly listeners = new Set<RegistryListener>();
  private snapshot?: UpstreamRegistry;
  private degradedState?: RegistryDegraded;
  /** Each loaded server's record hash and when this process first saw it so. */
  private readonly updated = new Map<string, { hash: string; at: string }>();
  private running?: Promise<UpstreamRegistry>;
  /** At most one scan waits behind the running one: every request made meanwhile shares it. */
  private queued?: Promise<UpstreamRegistry>;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Optional() @Inject(UPSTREAM_RECORD_STORE) store?: UpstreamRecordStore,
  ) {
    this.store = store ?? new RegistryDirStore(this.dir);
  }

  get dir(): string {
    return path.resolve(this.config.upstreams.registry_dir);
  }

  /** Where `file:` secrets may be read (`upstreams.secret_dirs`, `upstreams.secret_max_bytes`). */
  get secretFiles(): SecretFilePolicy {
    return secretFilePolicy(this.dir, this.config.upstreams);
  }

  get recordStore(): UpstreamRecordStore {
    return this.store;
  }

  /** The directory store needs no I/O but the scan's, so a plain start stays synchronous. */
  onModuleInit(): void | Promise<void> {
    if (this.store.kind === 'directory') {
      this.snapshot = this.scan([]);
      this.report(this.snapshot, 'boot');
      return;
    }
    return this.store.list().then(
      (stored) => {
        this.snapshot = this.scan(stored);
        this.report(this.snapshot, 'boot');
      },
      (error: unknown) => {
        // The shared store is away: serve the directory's servers until a refresh reaches it.
        this.snapshot = this.scan([]);
        this.report(this.snapshot, 'boot');
        this.markDegraded('boot', errorChain(error));
      },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.listeners.clear();
    await this.store.close();
  }

  get current(): UpstreamRegistry {
    if (!this.snapshot) throw new Error('the upstream registry is read before the module started');
    return this.snapshot;
  }

  get degraded(): RegistryDegraded | undefined {
    return this.degradedState;
  }

  /** When this process first loaded the server's record as it is now. */
  updatedAt(serverId: string): string | undefined {
    return this.updated.get(serverId)?.at;
  }

  /** Returns the unsubscribe function. */
  onChange(listener: RegistryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Scans again; resolves to the snapshot in force afterwards (the old one when the scan failed). */
  rescan(trigger: RegistryTrigger): Promise<UpstreamRegistry> {
    if (!this.running) {
      this.running = this.rescanNow(trigger).finally(() => (this.running = undefined));
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.rescan(trigger);
      });
    return this.queued;
  }

  private async rescanNow(trigger: RegistryTrigger): Promise<UpstreamRegistry> {
    let next: UpstreamRegistry;
    try {
      const stored = await this.store.list();
      next = this.scan(stored);
      const unreadable = next.rejected.find((rejected) => rejected.file === next.dir);
      if (unreadable) throw new Error(`registry directory ${unreadable.reason}`);
    } catch (error) {
      return this.markDegraded(trigger, errorChain(error));
    }
    if (this.degradedState) {
      this.logger.log({ msg: 'upstream registry refreshed again', trigger });
      this.degradedState = undefined;
    }
    const previous = this.current;
    // Rejected files and warnings may change without the server set: keep them current too.
    this.snapshot = next;
    if (next.revision === previous.revision) return next;
    const change: RegistryChange = {
      previous,
      current: next,
      diff: diffRecords(previous.servers, next.servers),
      trigger,
    };
    this.report(next, trigger, change.diff);
    for (const listener of this.listeners) listener(change);
    return next;
  }

  private noteUpdates(registry: UpstreamRegistry): void {
    const at = registry.loadedAt;
    const loaded = new Set(registry.servers.map((server) => server.server_id));
    for (const id of this.updated.keys()) if (!loaded.has(id)) this.updated.delete(id);
    for (const server of registry.servers) {
      const hash = recordHash(server);
      if (this.updated.get(server.server_id)?.hash !== hash) {
        this.updated.set(server.server_id, { hash, at });
      }
    }
  }

  private scan(stored: readonly StoredRegistryFile[]): UpstreamRegistry {
    return scanRegistry(this.dir, process.env, {
      strict: this.config.upstreams.strict,
      stored,
      secretFiles: this.secretFiles,
    });
  }

  private markDegraded(trigger: RegistryTrigger, reason: string): UpstreamRegistry {
    this.degradedState = {
      reason,
      trigger,
      since: this.degradedState?.since ?? new Date().toISOString(),
    };
    this.logger.warn({
      msg: 'upstream registry not refreshed; the previous snapshot stays in force',
      trigger,
      reason,
      revision: this.current.revision,
    });
    return this.current;
  }

  private report(registry: UpstreamRegistry, trigger: RegistryTrigger, diff?: RegistryDiff): void {
    this.noteUpdates(registry);
    for (const rejected of registry.rejected) {
      this.logger.warn({
        msg: 'upstream registry file rejected',
        file: rejected.file,
        server_id: rejected.serverId,
        reason: rejected.reason,
      });
    }
    for (const warning of registry.warnings) {
      this.logger.warn({ msg: 'upstream registry warning', warning });
    }
    this.logger.log({
      msg: 'upstream registry loaded',
      trigger,
      dir: registry.dir,
      servers: registry.servers.length,
      server_ids: registry.servers.map((server) => server.server_id),
      rejected: registry.rejected.length,
      warnings: registry.warnings.length,
      revision: registry.revision,
      ...(diff ?? {}),
    });
  }
}
