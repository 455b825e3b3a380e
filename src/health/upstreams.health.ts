import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import type { UpstreamRecord } from '../upstreams/upstream-record';
import { UpstreamRegistryService } from '../upstreams/upstream-registry.service';
import type { UpstreamState } from '../upstreams/upstream-state';
import { UpstreamToolsPublisher } from '../upstreams/upstream-tools.publisher';
import { UpstreamPool } from '../upstreams/upstream.pool';

/** Servers named in the readiness body, so a registry of a thousand cannot make the probe heavy. */
export const READINESS_MAX_LISTED_SERVERS = 20;

interface ServerHealth {
  server_id: string;
  required: boolean;
  state: UpstreamState;
  /** Its last tools/list answered, so its tools are served. */
  listed: boolean;
  last_error?: string;
}

/**
 * Readiness of the upstreams: down while a `required` server is not serving
 * (its last tools/list failed or has not answered yet, or its child is being
 * restarted or given up on). Other servers never fail readiness, but the
 * detail names the ones that are not serving, and why.
 */
@Injectable()
export class UpstreamsHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly registry: UpstreamRegistryService,
    private readonly pool: UpstreamPool,
    private readonly publisher: UpstreamToolsPublisher,
  ) {}

  check(key = 'upstreams'): HealthIndicatorResult {
    const session = this.indicator.check(key);
    const servers = this.registry.current.servers.map((record) => this.healthOf(record));
    const failing = servers.filter((server) => !serving(server));
    const requiredDown = failing.filter((server) => server.required);
    const details = {
      servers: servers.length,
      serving: servers.length - failing.length,
      registry_revision: this.registry.current.revision,
      not_serving: failing.slice(0, READINESS_MAX_LISTED_SERVERS),
    };
    if (requiredDown.length === 0) return session.up(details);
    return session.down({
      ...details,
      reason: `required upstream not serving: ${requiredDown
        .slice(0, READINESS_MAX_LISTED_SERVERS)
        .map((server) => server.server_id)
        .join(', ')}`,
    });
  }

  private healthOf(record: UpstreamRecord): ServerHealth {
    const status = this.pool.connection(record.server_id)?.status;
    return {
      server_id: record.server_id,
      required: record.required,
      state: status?.state ?? 'idle',
      listed: this.publisher.isListed(record.server_id),
      ...(status?.last_error ? { last_error: status.last_error.slice(0, 512) } : {}),
    };
  }
}

function serving(server: ServerHealth): boolean {
  return server.listed && server.state !== 'down' && server.state !== 'degraded';
}
