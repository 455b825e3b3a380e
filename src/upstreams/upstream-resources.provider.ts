import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import {
  ResolvedResource,
  ResourceEntry,
  ResourceProvider,
  ResourceReadRequest,
  ResourceReadResult,
} from '../resources/resource-provider';
import { ResourceProviders } from '../resources/resource-providers';
import { upstreamOutputTooLarge, upstreamUnavailable } from './upstream-call.errors';
import { boundedDescription } from './upstream-registered-prompt';
import { UpstreamRecord } from './upstream-record';
import { UPSTREAM_LIST_RELAY_LIMITS } from './upstream-list-relay.limits';
import { readAllPages } from './upstream-relay.pages';
import { UpstreamRelayLists } from './upstream-relay.lists';
import { UpstreamRegistryService } from './upstream-registry.service';
import {
  fromGatewayResourceUri,
  toGatewayResourceUri,
  UPSTREAM_RESOURCE_SCHEME,
} from './upstream-resource-uri';
import { UpstreamPool } from './upstream.pool';

/**
 * Relays the resources of every server whose record says `relay.resources:
 * true` as `mcp+upstream://<server_id>/<encoded upstream URI>`. Reads go
 * through resources/read like skill reads (visibility on the gateway URI,
 * rate limits, ledger) and are forwarded to the server the URI names.
 */
@Injectable()
export class UpstreamResourcesProvider
  implements ResourceProvider, OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown
{
  readonly name = 'upstreams';
  readonly schemes = [UPSTREAM_RESOURCE_SCHEME];
  // Forwarding subscriptions would need one upstream subscription per URI and session; not built.
  readonly supportsSubscriptions = false;
  private readonly logger = new Logger('Upstream resources');
  private readonly lists: UpstreamRelayLists<ResourceEntry>;
  private running?: Promise<void>;
  private registered = false;

  constructor(
    private readonly registry: UpstreamRegistryService,
    private readonly pool: UpstreamPool,
    private readonly providers: ResourceProviders,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.lists = new UpstreamRelayLists(registry, pool, {
      kind: 'resources',
      relayed: (record) => record.relay.resources,
      fetch: async (connection) => {
        const { items, cut } = await connection.request('resources/list', (client, options) =>
          readAllPages(async (cursor) => {
            const page = await client.listResources(cursor ? { cursor } : undefined, options);
            return { items: page.resources, nextCursor: page.nextCursor };
          }),
        );
        const serverId = connection.record.server_id;
        if (cut) this.logger.warn({ msg: 'upstream resource list cut', server_id: serverId });
        return items.flatMap((resource) => this.toEntry(serverId, resource));
      },
      changed: () => this.providers.listChanged(),
      ttlMs: {
        ok: config.upstreams.tools_cache_ttl_seconds * 1000,
        failed: config.upstreams.tools_cache_failure_ttl_seconds * 1000,
      },
    });
  }

  /** The scheme is served only while some server relays resources, so a gateway without any names no mcp+upstream://. */
  onModuleInit(): void {
    if (this.lists.anyRelayed) this.ensureRegistered();
  }

  onApplicationBootstrap(): void {
    if (this.lists.anyRelayed) this.running = this.lists.start();
  }

  onApplicationShutdown(): void {
    this.lists.stop();
  }

  /** Resolves when the start-up listing is over (for tests). */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** Lists one server's resources again (coalesced with listings in progress). */
  refresh(serverId: string): Promise<void> {
    if (this.lists.anyRelayed) this.ensureRegistered();
    return this.lists.refresh(serverId);
  }

  list(): readonly ResourceEntry[] {
    return [...this.lists.listed.values()].flatMap(({ items }) => items);
  }

  templates(): [] {
    return [];
  }

  /** Any URI of a relaying server resolves (the upstream may serve URIs it does not list); others are not found. */
  resolve(uri: string): ResolvedResource {
    const { serverId, upstreamUri } = fromGatewayResourceUri(uri);
    const record = this.registry.current.servers.find((server) => server.server_id === serverId);
    if (!record?.relay.resources) {
      throw new GatewayError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, {
        data: { uri },
      });
    }
    return { visibilityUri: uri, read: (request) => this.read(record, upstreamUri, request) };
  }

  private ensureRegistered(): void {
    if (this.registered) return;
    this.providers.register(this);
    this.registered = true;
  }

  private async read(
    record: UpstreamRecord,
    upstreamUri: string,
    request: ResourceReadRequest,
  ): Promise<ResourceReadResult> {
    const serverId = record.server_id;
    const connection = this.pool.connection(serverId);
    if (!connection) throw upstreamUnavailable(serverId, new Error('not in the registry'));
    const result: ReadResourceResult = await connection.request(
      'resources/read',
      (client, options) => client.readResource({ uri: upstreamUri }, options),
      request.signal,
    );
    const bytes = Buffer.byteLength(JSON.stringify(result));
    const limit = record.budgets.max_tool_output_bytes;
    if (bytes > limit) throw upstreamOutputTooLarge(serverId, 'resources/read', bytes, limit);
    return {
      contents: result.contents.map((content) => ({
        ...content,
        uri: toGatewayResourceUri(serverId, content.uri),
      })),
    };
  }

  /** The list entry of one upstream resource, or none when its URI or name is out of bounds (logged). */
  private toEntry(serverId: string, resource: Resource): ResourceEntry[] {
    const { maxUriChars, maxNameChars } = UPSTREAM_LIST_RELAY_LIMITS;
    const long = [resource.name, resource.title ?? ''].some((text) => text.length > maxNameChars);
    if (resource.uri.length > maxUriChars || long) {
      this.logger.warn({
        msg: 'upstream resource not relayed: URI or name too long',
        server_id: serverId,
        max_uri_chars: maxUriChars,
        max_name_chars: maxNameChars,
      });
      return [];
    }
    const entry: ResourceEntry = {
      uri: toGatewayResourceUri(serverId, resource.uri),
      name: resource.name,
    };
    if (resource.title !== undefined) entry.title = resource.title;
    if (resource.description !== undefined)
      entry.description = boundedDescription(resource.description);
    if (resource.mimeType !== undefined) entry.mimeType = resource.mimeType;
    if (resource.size !== undefined) entry.size = resource.size;
    if (resource.annotations !== undefined) entry.annotations = { ...resource.annotations };
    return [entry];
  }
}
