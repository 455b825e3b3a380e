import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import type { UpstreamRecord } from '../upstreams/upstream-record';
import { UpstreamRegistryService } from '../upstreams/upstream-registry.service';
import type { UpstreamState } from '../upstreams/upstream-state';
import { UpstreamToolsPublisher } from '../upstreams/upstream-tools.publisher';
import { UpstreamPool } from '../upstreams/upstream.pool';
import { ADMIN_HEALTH_MAX_LISTED_SERVERS } from './health.constants';
import { elapsedMs } from './timed-check';

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

/** What GET /admin/health shows of each server: the admin API's view of its connection. */
interface ServerDetail extends ServerHealth {
  since?: string;
  restarts: number;
  requests_failing?: boolean;
  last_error_at?: string;
  last_success_at?: string;
}

/**
 * Readiness of the upstreams: down while a `required` server is not serving
 * (its last tools/list failed or has not answered yet, or its child is being
 * restarted or given up on). Other servers never fail readiness, but the
 * detail names the ones that are not serving, and why. The state is what the
 * pool already knows: this check does no I/O.
 */
@Injectable()
export class UpstreamsHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly registry: UpstreamRegistryService,
    private readonly pool: UpstreamPool,
    private readonly publisher: UpstreamToolsPublisher,
  ) {}

  /** `detailed` (the admin API) lists every server, up to ADMIN_HEALTH_MAX_LISTED_SERVERS. */
  check(key = 'upstreams', detailed = false): HealthIndicatorResult {
    const started = performance.now();
    const session = this.indicator.check(key);
    const records = this.registry.current.servers;
    const servers = records.map((record) => this.healthOf(record));
    const failing = servers.filter((server) => !serving(server));
    const requiredDown = failing.filter((server) => server.required);
    const details = {
      servers: servers.length,
      serving: servers.length - failing.length,
      registry_revision: this.registry.current.revision,
      not_serving: failing.slice(0, READINESS_MAX_LISTED_SERVERS),
      ...(detailed ? this.everyServer(records) : {}),
      latencyMs: elapsedMs(started),
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

  private everyServer(records: readonly UpstreamRecord[]) {
    const listed = records.slice(0, ADMIN_HEALTH_MAX_LISTED_SERVERS);
    return {
      server_list: listed.map((record) => this.detailOf(record)),
      ...(records.length > listed.length
        ? {
            server_list_truncated: `${records.length - listed.length} more not listed (at most ${ADMIN_HEALTH_MAX_LISTED_SERVERS})`,
          }
        : {}),
    };
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

  private detailOf(record: UpstreamRecord): ServerDetail {
    const connection = this.pool.connection(record.server_id);
    const health = connection?.health();
    return {
      server_id: record.server_id,
      required: record.required,
      state: health?.state ?? 'idle',
      listed: this.publisher.isListed(record.server_id),
      restarts: connection?.status.restarts ?? 0,
      ...(health ? { since: health.since, requests_failing: health.requestsFailing } : {}),
      ...(health?.lastError
        ? { last_error: health.lastError.message.slice(0, 512), last_error_at: health.lastError.at }
        : {}),
      ...(health?.lastSuccessAt ? { last_success_at: health.lastSuccessAt } : {}),
    };
  }
}

function serving(server: ServerHealth): boolean {
  return server.listed && server.state !== 'down' && server.state !== 'degraded';
}
