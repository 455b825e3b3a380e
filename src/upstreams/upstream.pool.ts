import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import type { UpstreamsConfig } from '../config/gateway-config';
import { RequestTracer } from '../observability/tracing/request-tracer';
import { UpstreamMetrics } from '../observability/upstream.metrics';
import { ChildSlots } from './child-slots';
import { errorChain } from './error-chain';
import { DEFAULT_RESTART_POLICY, RestartPolicy } from './restart-backoff';
import { RegistryDiff } from './registry-diff';
import { DEFAULT_PROGRESS_INTERVAL_MS, UpstreamConnection } from './upstream.connection';
import { NO_UPSTREAM_METRICS, UpstreamMetricsSink } from './upstream-metrics.sink';
import { UpstreamRegistryService } from './upstream-registry.service';

/** The pool's settings from the `upstreams` config section; the defaults serve tests and the CLI. */
export type UpstreamPoolSettings = Pick<
  UpstreamsConfig,
  | 'max_children'
  | 'restart_backoff_base_ms'
  | 'restart_backoff_max_ms'
  | 'restart_max_failures'
  | 'restart_window_seconds'
  | 'progress_interval_ms'
>;

export const DEFAULT_POOL_SETTINGS: UpstreamPoolSettings = {
  max_children: 32,
  restart_backoff_base_ms: DEFAULT_RESTART_POLICY.baseMs,
  restart_backoff_max_ms: DEFAULT_RESTART_POLICY.maxMs,
  restart_max_failures: DEFAULT_RESTART_POLICY.maxFailures,
  restart_window_seconds: DEFAULT_RESTART_POLICY.windowMs / 1000,
  progress_interval_ms: DEFAULT_PROGRESS_INTERVAL_MS,
};

/**
 * Keeps one connection per upstream of the registry snapshot, so that a
 * server's session and child process outlive single calls. Connections are made
 * on first use; `warm` servers connect at bootstrap; shutdown closes them all.
 */
@Injectable()
export class UpstreamPool implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Upstreams');
  private readonly connections = new Map<string, UpstreamConnection>();
  private readonly children: ChildSlots;
  private readonly restart: RestartPolicy;
  private readonly metrics: UpstreamMetricsSink;
  private readonly progressIntervalMs: number;
  private closed = false;

  constructor(
    private readonly registry: UpstreamRegistryService,
    @Optional() @Inject(GATEWAY_CONFIG) config?: { upstreams: UpstreamPoolSettings },
    @Optional() metrics?: UpstreamMetrics,
    @Optional() private readonly tracer?: RequestTracer,
  ) {
    const settings = config?.upstreams ?? DEFAULT_POOL_SETTINGS;
    this.metrics = metrics ?? NO_UPSTREAM_METRICS;
    this.children = new ChildSlots(settings.max_children, (running) =>
      this.metrics.children(running),
    );
    this.metrics.children(0);
    this.progressIntervalMs = settings.progress_interval_ms;
    this.restart = {
      baseMs: settings.restart_backoff_base_ms,
      maxMs: settings.restart_backoff_max_ms,
      maxFailures: settings.restart_max_failures,
      windowMs: settings.restart_window_seconds * 1000,
    };
  }

  /** Stdio children running now, across every upstream. */
  get runningChildren(): number {
    return this.children.inUse;
  }

  /** The connection of a loaded server (not yet connected unless used or warm), or `undefined`. */
  connection(serverId: string): UpstreamConnection | undefined {
    if (this.closed) return undefined;
    const existing = this.connections.get(serverId);
    if (existing) return existing;
    const record = this.registry.current.servers.find((server) => server.server_id === serverId);
    if (!record) return undefined;
    const connection = new UpstreamConnection(record, {
      children: this.children,
      restart: this.restart,
      metrics: this.metrics,
      tracer: this.tracer,
      progressIntervalMs: this.progressIntervalMs,
    });
    this.connections.set(serverId, connection);
    return connection;
  }

  /** Starts warm connections without waiting: a server that fails here is logged and retried on first use. */
  onApplicationBootstrap(): void {
    for (const record of this.registry.current.servers.filter((server) => server.warm)) {
      this.connection(record.server_id)
        ?.connect()
        .catch((error: Error) =>
          this.logger.warn({
            msg: 'warm upstream failed to connect',
            server_id: record.server_id,
            error: errorChain(error),
          }),
        );
    }
  }

  /**
   * Applies a new registry snapshot (already in force): connections of removed
   * and changed servers are closed, which stops their children; unchanged ones
   * keep their connection; new and changed servers connect on first use, or
   * now when warm.
   */
  async apply(diff: RegistryDiff): Promise<void> {
    const leaving = [...diff.removed, ...diff.changed].flatMap((serverId) => {
      const connection = this.connections.get(serverId);
      this.connections.delete(serverId);
      return connection ? [connection] : [];
    });
    await Promise.allSettled(leaving.map((connection) => connection.close()));
    const arriving = new Set([...diff.added, ...diff.changed]);
    for (const record of this.registry.current.servers) {
      if (!record.warm || !arriving.has(record.server_id)) continue;
      // As at bootstrap: a failure is retried on first use (the publisher's listing is one).
      this.connection(record.server_id)
        ?.connect()
        .catch(() => undefined);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.allSettled(connections.map((connection) => connection.close()));
  }
}
