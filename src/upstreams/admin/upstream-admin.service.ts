import {
  ConflictException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { recordHash } from '../registry-diff';
import { loadRegistryBytes } from '../registry-file.loader';
import { RegistryReplication } from '../registry-replication';
import { probeUpstream, ProbeResult } from '../upstream.probe';
import { UpstreamPool } from '../upstream.pool';
import { masked } from '../upstream-record.masking';
import { UpstreamRecord } from '../upstream-record';
import { RecordStoreConflict } from '../upstream-record.store';
import { REGISTRY_LIMITS } from '../upstream-registry.limits';
import { UpstreamRegistryService } from '../upstream-registry.service';
import { UpstreamToolsPublisher } from '../upstream-tools.publisher';
import type { UpstreamState } from '../upstream-state';
import { invalid, RegistryBody } from './registry-body.reader';
import {
  ServerDetailDto,
  ServerListDto,
  ServerState,
  ServerStatusDto,
  ServerWriteDto,
} from './upstream-admin.dto';

type WriteMode = 'create' | 'replace' | 'upsert';

/** Each test may start a child process: only this many at once. */
export const MAX_CONCURRENT_TESTS = 4;

/**
 * What the admin API reads and changes of the upstream registry. A write is
 * validated exactly as a registry file before anything is stored, stored
 * (a file, or the shared table), then the registry is scanned again and the
 * other replicas told. Writes on one replica run one at a time.
 */
/** The admin API's names for the supervisor's states (a connected server may still show Degraded). */
const SERVER_STATE_OF: Record<UpstreamState, ServerState> = {
  idle: 'Idle',
  connected: 'Connected',
  degraded: 'Degraded',
  down: 'Down',
};

@Injectable()
export class UpstreamAdminService {
  private writing: Promise<unknown> = Promise.resolve();
  private testsRunning = 0;

  constructor(
    private readonly registry: UpstreamRegistryService,
    private readonly pool: UpstreamPool,
    private readonly publisher: UpstreamToolsPublisher,
    private readonly replication: RegistryReplication,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  list(): ServerListDto {
    const registry = this.registry.current;
    const degraded = this.registry.degraded;
    return {
      registry: {
        revision: registry.revision,
        loaded_at: registry.loadedAt,
        store: this.registry.recordStore.kind,
        degraded: degraded !== undefined,
        degraded_reason: degraded?.reason ?? null,
        degraded_since: degraded?.since ?? null,
      },
      servers: registry.servers.map((record) => this.status(record)),
      rejected: registry.rejected.map((rejected) => ({
        file: rejected.file,
        ...(rejected.serverId ? { server_id: rejected.serverId } : {}),
        reason: rejected.reason,
        problems: rejected.problems,
      })),
      warnings: registry.warnings,
    };
  }

  detail(serverId: string): ServerDetailDto {
    const record = this.find(serverId);
    const separator = this.config.upstreams.separator;
    return {
      ...this.status(record),
      record: masked(record) as unknown as Record<string, unknown>,
      tools: this.publisher.exposedTools(serverId).map(({ name, upstreamTool }) => ({
        name,
        upstream_tool: upstreamTool,
        shortened: name !== `${record.tool_namespace}${separator}${upstreamTool}`,
      })),
    };
  }

  async test(serverId: string): Promise<ProbeResult> {
    const record = this.find(serverId);
    if (this.testsRunning >= MAX_CONCURRENT_TESTS) {
      throw new HttpException(
        `${MAX_CONCURRENT_TESTS} tests are running (the admin API's limit); try again when one ends`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    this.testsRunning++;
    try {
      return await probeUpstream(record);
    } finally {
      this.testsRunning--;
    }
  }

  /** `serverId` is the path's id (replace), absent for create and import. */
  write(body: RegistryBody, mode: WriteMode, serverId?: string): Promise<ServerWriteDto> {
    const run = this.writing.then(() => this.writeNow(body, mode, serverId));
    this.writing = run.catch(() => undefined);
    return run;
  }

  remove(serverId: string): Promise<ServerWriteDto> {
    const run = this.writing.then(async () => {
      const record = this.find(serverId);
      await this.stored(() => this.registry.recordStore.remove(serverId, record.file));
      return this.afterWrite(serverId, true);
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  private async writeNow(
    body: RegistryBody,
    mode: WriteMode,
    pathId?: string,
  ): Promise<ServerWriteDto> {
    const record = this.validate(body);
    const serverId = record.server_id;
    if (pathId !== undefined && pathId !== serverId) {
      throw invalid('server_id', `must equal the id in the path ("${pathId}")`);
    }
    const existing = this.registry.current.servers.find((s) => s.server_id === serverId);
    if (mode === 'create' && existing) {
      throw new ConflictException(
        `server ${serverId} exists (defined by ${existing.file}); PUT replaces it`,
      );
    }
    if (mode === 'replace' && !existing) throw new NotFoundException(`no server ${serverId}`);
    const entries = this.registry.current.servers.length + this.registry.current.rejected.length;
    if (!existing && entries >= REGISTRY_LIMITS.maxFiles) {
      // One more would push the directory over the scan's limit, and then nothing would load.
      throw new ConflictException(
        `the registry holds ${entries} entries; ${REGISTRY_LIMITS.maxFiles} is its limit`,
      );
    }
    const owner = this.registry.current.servers.find(
      (s) => s.tool_namespace === record.tool_namespace && s.server_id !== serverId,
    );
    if (owner) {
      throw invalid(
        'tool_namespace',
        `"${record.tool_namespace}" is already used by server "${owner.server_id}"`,
      );
    }
    this.refuseOverwritingAnother(serverId, `${serverId}.${body.format}`);
    const changed = !existing || recordHash(existing) !== recordHash(record);
    await this.stored(() =>
      this.registry.recordStore.put(serverId, body.format, body.text, existing?.file),
    );
    return this.afterWrite(serverId, changed);
  }

  /** `<id>.<ext>` may already be a file that declares another server: writing it would drop that one. */
  private refuseOverwritingAnother(serverId: string, name: string): void {
    if (this.registry.recordStore.kind !== 'directory') return;
    const { servers, rejected } = this.registry.current;
    const other =
      servers.find((s) => s.file === name && s.server_id !== serverId)?.server_id ??
      rejected.find((r) => r.file === name && r.serverId !== serverId)?.serverId ??
      (rejected.some((r) => r.file === name && r.serverId === undefined)
        ? 'a file that does not load'
        : undefined);
    if (other !== undefined) {
      throw new ConflictException(
        `${name} in the registry directory holds ${other === 'a file that does not load' ? other : `server ${other}`}; rename or remove it first`,
      );
    }
  }

  /** The body as a registry file named `<id>.<format>` would load, or a 400 naming the first key at fault. */
  private validate(body: RegistryBody): UpstreamRecord {
    const outcome = loadRegistryBytes(`body.${body.format}`, Buffer.from(body.text, 'utf8'), {
      dir: this.registry.dir,
      env: process.env,
      strict: this.config.upstreams.strict,
      secretFiles: this.registry.secretFiles,
    });
    if (outcome.ok) return outcome.record;
    const problems = outcome.rejected.problems;
    const first = problems[0] ?? 'is not a valid registry file';
    const colon = first.indexOf(': ');
    const field =
      colon > 0 && !first.slice(0, colon).includes(' ') ? first.slice(0, colon) : 'body';
    const message = field === 'body' ? first : first.slice(colon + 2);
    throw invalid(field, message, problems);
  }

  private async stored(action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (error) {
      if (error instanceof RecordStoreConflict) throw new ConflictException(error.message);
      throw error;
    }
  }

  private async afterWrite(serverId: string, changed: boolean): Promise<ServerWriteDto> {
    const registry = await this.registry.rescan('admin');
    const propagated = await this.replication.announce();
    const record = registry.servers.find((s) => s.server_id === serverId);
    return {
      server_id: serverId,
      changed,
      revision: registry.revision,
      propagated,
      ...(record ? { record: masked(record) as unknown as Record<string, unknown> } : {}),
    };
  }

  private find(serverId: string): UpstreamRecord {
    const record = this.registry.current.servers.find((s) => s.server_id === serverId);
    if (!record) throw new NotFoundException(`no server ${serverId} in the registry`);
    return record;
  }

  private status(record: UpstreamRecord): ServerStatusDto {
    const status = this.pool.connection(record.server_id)?.health();
    const lastError = status?.lastError;
    const state: ServerState = !status
      ? 'Idle'
      : status.state === 'connected'
        ? // Degraded also when connected but the last thing that happened was a failed request.
          status.requestsFailing
          ? 'Degraded'
          : 'Connected'
        : SERVER_STATE_OF[status.state];
    return {
      server_id: record.server_id,
      display_name: record.display_name,
      transport: record.transport,
      status: state,
      last_error: lastError?.message ?? null,
      last_error_at: lastError?.at ?? null,
      status_since: status?.since ?? this.registry.current.loadedAt,
      tool_count: this.publisher.exposedTools(record.server_id).length,
      revision: recordHash(record),
      updated_at: this.registry.updatedAt(record.server_id) ?? this.registry.current.loadedAt,
      file: record.file,
    };
  }
}
