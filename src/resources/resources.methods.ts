import { Injectable } from '@nestjs/common';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { McpMethod } from '../json-rpc/mcp-method.decorator';
import { McpContext, McpParams } from '../json-rpc/mcp-params.decorator';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { paginate } from '../tools/list-cursor';
import { bytesToContent, checkRange, readSkillFile } from './resource-read';
import { ResourceSubscriptions } from './resource-subscriptions';
import { ResourceVisibility } from './resource-visibility';
import { META_ETAG, SKILL_MIME_TYPE, toResourceEntry } from './resource-entry';
import { SkillCatalog } from './skill-catalog';
import { SkillResolver } from './skill-resolver';
import { parseCategoryWildcard } from './skill-uri';

export const RESOURCES_PAGE_SIZE = 50;

/** A cached list entry plus the fields its filters need (stripped before it is sent). */
type ListedSkill = Record<string, unknown> & { uri: string; _category: string; _tags: string[] };
export const META_NOT_MODIFIED = 'owlclaw/notModified';

/** `resources/*` over the skills catalog. Reads go through governance and the ledger like tool calls. */
@Injectable()
export class ResourcesMethods {
  private listCache?: { version: number; entries: ListedSkill[] };

  constructor(
    private readonly catalog: SkillCatalog,
    private readonly resolver: SkillResolver,
    private readonly visibility: ResourceVisibility,
    private readonly subscriptions: ResourceSubscriptions,
  ) {}

  /** Extension params: `category` (`skill://<category>/*` or a bare name) and `tags` (all must match). */
  @McpMethod('resources/list')
  list(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    const category = categoryFilter(params.category);
    const tags = tagFilter(params.tags);
    const visible = this.entries().filter(
      (entry) =>
        (category === undefined || entry._category === category) &&
        tags.every((tag) => entry._tags.includes(tag)) &&
        this.visibility.isVisible(entry.uri, ctx.clientId),
    );
    const page = paginate(visible, params.cursor, RESOURCES_PAGE_SIZE);
    const resources = page.items.map(({ _category: _c, _tags: _t, ...entry }) => entry);
    return page.nextCursor === undefined
      ? { resources }
      : { resources, nextCursor: page.nextCursor };
  }

  @McpMethod('resources/templates/list')
  templates() {
    return {
      resourceTemplates: [
        {
          uriTemplate: 'skill://{category}/{name}',
          name: 'skill',
          title: 'Skill',
          description: "A skill's SKILL.md: how to use a business capability well",
          mimeType: SKILL_MIME_TYPE,
        },
        {
          uriTemplate: 'skill://{category}/{name}/{+path}',
          name: 'skill-file',
          title: 'Skill file',
          description: 'A supporting file of a skill (references, scripts, templates)',
        },
      ],
    };
  }

  /** Extension params: `range` {start, end?} (bytes, end exclusive) and `ifNoneMatch` (an ETag). */
  @McpMethod('resources/read', { audited: true })
  read(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    const uri = params.uri;
    if (typeof uri !== 'string')
      throw GatewayError.invalidParams('resources/read needs params.uri', { field: 'uri' });
    ctx.call.target = uri;
    const { skill, file } = this.resolver.resolveReadable(uri);
    if (!this.visibility.isVisible(skill.uri, ctx.clientId) || !this.catalog.rootDir) {
      throw new GatewayError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, {
        data: { uri },
      });
    }
    const snapshot = readSkillFile(this.catalog.rootDir, skill, file, uri);
    const meta: Record<string, unknown> = {
      [META_ETAG]: snapshot.etag,
      'owlclaw/size': snapshot.bytes.length,
      'owlclaw/lastModified': snapshot.lastModified,
    };
    if (params.ifNoneMatch !== undefined && params.ifNoneMatch === snapshot.etag) {
      return { contents: [], _meta: { ...meta, [META_NOT_MODIFIED]: true } };
    }
    const range = checkRange(params.range, snapshot.bytes.length);
    if (range) {
      const slice = snapshot.bytes.subarray(range.start, range.end);
      const rangeMeta = { ...meta, 'owlclaw/range': { start: range.start, end: range.end } };
      return {
        contents: [
          { uri, mimeType: file.mimeType, blob: slice.toString('base64'), _meta: rangeMeta },
        ],
      };
    }
    return {
      contents: [{ uri, mimeType: file.mimeType, ...bytesToContent(snapshot.bytes), _meta: meta }],
    };
  }

  @McpMethod('resources/subscribe')
  subscribe(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    const { skill } = this.resolver.resolveReadable(params.uri);
    if (!this.visibility.isVisible(skill.uri, ctx.clientId)) {
      throw new GatewayError(
        ErrorCode.ResourceNotFound,
        `Resource not found: ${String(params.uri)}`,
      );
    }
    this.subscriptions.subscribe(ctx.session, params.uri as string);
    return {};
  }

  @McpMethod('resources/unsubscribe')
  unsubscribe(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    if (typeof params.uri !== 'string')
      throw GatewayError.invalidParams('params.uri is required', { field: 'uri' });
    this.subscriptions.unsubscribe(ctx.session, params.uri);
    return {};
  }

  /** List entries are built once per catalog version; filters and pages slice the cached array. */
  private entries() {
    if (this.listCache?.version !== this.catalog.version) {
      const entries = this.catalog.list().map((skill) => ({
        ...toResourceEntry(skill),
        uri: skill.uri,
        _category: skill.category,
        _tags: skill.tags,
      }));
      this.listCache = { version: this.catalog.version, entries };
    }
    return this.listCache.entries;
  }
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
