import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { errorChain } from './error-chain';
import { RegistryDiff } from './registry-diff';
import { UpstreamConnection } from './upstream.connection';
import { UpstreamRegistryService } from './upstream-registry.service';

/**
 * Keeps one connection per upstream of the registry snapshot, so that a
 * server's session and child process outlive single calls. Connections are made
 * on first use; `warm` servers connect at bootstrap; shutdown closes them all.
 */
@Injectable()
export class UpstreamPool implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Upstreams');
  private readonly connections = new Map<string, UpstreamConnection>();
  private closed = false;

  constructor(private readonly registry: UpstreamRegistryService) {}

  /** The connection of a loaded server (not yet connected unless used or warm), or `undefined`. */
  connection(serverId: string): UpstreamConnection | undefined {
    if (this.closed) return undefined;
    const existing = this.connections.get(serverId);
    if (existing) return existing;
    const record = this.registry.current.servers.find((server) => server.server_id === serverId);
    if (!record) return undefined;
    const connection = new UpstreamConnection(record);
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
