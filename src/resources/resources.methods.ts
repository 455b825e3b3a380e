import { Injectable } from '@nestjs/common';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { Governed } from '../governance/governed.decorator';
import { McpMethod } from '../json-rpc/mcp-method.decorator';
import { McpContext, McpParams } from '../json-rpc/mcp-params.decorator';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { RequestTracer } from '../observability/tracing/request-tracer';
import { ATTR_MCP_RESOURCE, SPAN_HANDLER } from '../observability/tracing/span-attributes';
import { paginate } from '../tools/list-cursor';
import { META_CATEGORY, META_TAGS } from './resource-entry';
import { ResourceEntry, ResourceReadResult } from './resource-provider';
import { ResourceProviders } from './resource-providers';
import { ResourceSubscriptions } from './resource-subscriptions';
import { ResourceVisibility } from './resource-visibility';
import { parseCategoryWildcard } from './skill-uri';

export const RESOURCES_PAGE_SIZE = 50;
export { META_NOT_MODIFIED } from './skill-resource.provider';

/**
 * `resources/*` over every ResourceProvider (the skills catalog and those of
 * capability modules). Reads go through governance and the ledger like tool
 * calls; what a client may not see answers exactly like what does not exist.
 */
@Injectable()
export class ResourcesMethods {
  constructor(
    private readonly providers: ResourceProviders,
    private readonly visibility: ResourceVisibility,
    private readonly subscriptions: ResourceSubscriptions,
    private readonly tracer: RequestTracer,
  ) {}

  /**
   * Every provider's resources, merged and paged. Extension params: `category`
   * (`skill://<category>/*` or a bare name) and `tags` (all must match), which
   * only entries carrying `owlclaw/category` / `owlclaw/tags` can match.
   */
  @McpMethod('resources/list')
  list(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    const category = categoryFilter(params.category);
    const tags = tagFilter(params.tags);
    const visible = this.providers
      .list()
      .filter(
        (entry) =>
          (category === undefined || entry._meta?.[META_CATEGORY] === category) &&
          tags.every((tag) => tagsOf(entry).includes(tag)) &&
          this.visibility.isVisible(entry.uri, ctx.clientId, ctx.token?.scopes),
      );
    const page = paginate(visible, params.cursor, RESOURCES_PAGE_SIZE);
    return page.nextCursor === undefined
      ? { resources: page.items }
      : { resources: page.items, nextCursor: page.nextCursor };
  }

  @McpMethod('resources/templates/list')
  templates() {
    return { resourceTemplates: this.providers.templates() };
  }

  @McpMethod('resources/read', { audited: true, resourceUris: { paths: ['uri'] } })
  @Governed({ kind: 'resource', target: 'uri' })
  async read(
    @McpParams() params: JsonRpcParams,
    @McpContext() ctx: McpRequestContext,
  ): Promise<ResourceReadResult> {
    const uri = params.uri;
    if (typeof uri !== 'string')
      throw GatewayError.invalidParams('resources/read needs params.uri', { field: 'uri' });
    const { resource } = this.providers.resolve(uri);
    // The guard judges skill URIs; another provider's resource is judged here, once.
    if (!ctx.call.visible && !this.visibility.isVisible(resource.visibilityUri, ctx.clientId))
      throw notFound(uri);
    return this.tracer.inSpan(SPAN_HANDLER, { [ATTR_MCP_RESOURCE]: uri }, () =>
      Promise.resolve(resource.read({ uri, params, clientId: ctx.clientId, signal: ctx.signal })),
    );
  }

  @McpMethod('resources/subscribe', { resourceUris: { paths: ['uri'], kept: true } })
  async subscribe(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    const uri = params.uri;
    if (typeof uri !== 'string' || uri.length === 0)
      throw GatewayError.invalidParams('resources/subscribe needs params.uri', { field: 'uri' });
    this.subscriptions.checkUriLength(uri);
    const { provider, resource } = this.providers.resolve(uri);
    if (!this.visibility.isVisible(resource.visibilityUri, ctx.clientId)) throw notFound(uri);
    if (!provider.supportsSubscriptions) {
      throw GatewayError.invalidParams(
        `Resources of ${provider.schemes.map((s) => `${s}://`).join(', ')} do not support subscriptions`,
        { uri },
      );
    }
    await this.subscriptions.subscribe(ctx.session, uri);
    return {};
  }

  @McpMethod('resources/unsubscribe', { resourceUris: { paths: ['uri'] } })
  async unsubscribe(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    if (typeof params.uri !== 'string')
      throw GatewayError.invalidParams('params.uri is required', { field: 'uri' });
    await this.subscriptions.unsubscribe(ctx.session, params.uri);
    return {};
  }
}

function notFound(uri: string): GatewayError {
  return new GatewayError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, {
    data: { uri },
  });
}

function tagsOf(entry: ResourceEntry): unknown[] {
  const tags = entry._meta?.[META_TAGS];
  return Array.isArray(tags) ? tags : [];
}

function categoryFilter(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0)
    throw GatewayError.invalidParams('category must be a string');
  if (!value.startsWith('skill://')) return value;
  const wildcard = parseCategoryWildcard(value);
  if (!wildcard)
    throw GatewayError.invalidParams('category must be skill://<category>/* or a category name');
  return wildcard.category;
}

function tagFilter(value: unknown): string[] {
  if (value === undefined) return [];
  const tags = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string')) {
    throw GatewayError.invalidParams('tags must be a string or an array of strings', {
      field: 'tags',
    });
  }
  return tags;
}
