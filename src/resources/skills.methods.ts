import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { GatewayError } from '../errors/gateway.error';
import { McpMethod } from '../json-rpc/mcp-method.decorator';
import { McpContext, McpParams } from '../json-rpc/mcp-params.decorator';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { paginate } from '../tools/list-cursor';
import { DIRECTORY_MIME_TYPE } from './mime-type';
import { ResourceVisibility } from './resource-visibility';
import { RESOURCES_PAGE_SIZE } from './resources.methods';
import { SkillCatalog } from './skill-catalog';
import { toSkillEntry } from './skill-entry';
import { isFresh } from './skill-freshness';
import { SkillFile, SkillRecord } from './skill-record';
import { SkillResolver } from './skill-resolver';
import { formatSkillUri } from './skill-uri';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
/** Per-client visibility can differ, so listings must not be shared between clients. */
const CACHE_SCOPE = 'private';

/** The MCP Skills extension (SEP-2640): skills/list, skills/get and resources/directory/read. */
@Injectable()
export class SkillsMethods {
  constructor(
    private readonly catalog: SkillCatalog,
    private readonly resolver: SkillResolver,
    private readonly visibility: ResourceVisibility,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @McpMethod('skills/list')
  list(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    const published = this.catalog
      .list()
      .filter(
        (skill) =>
          skill.excludedFromSkillsList === undefined &&
          this.visibility.isVisible(skill.uri, ctx.clientId),
      );
    const page = paginate(published, params.cursor, RESOURCES_PAGE_SIZE);
    // Re-checked before they are described: one that changed since the scan may have become
    // ineligible (or been deleted), and is then left out of this page rather than misdescribed.
    const skills = page.items
      .map((skill) => this.fresh(skill))
      .filter(
        (skill): skill is SkillRecord =>
          skill !== undefined && skill.excludedFromSkillsList === undefined,
      )
      .map((skill) => toSkillEntry(skill, this.visibility.visibleFiles(skill, ctx.clientId)));
    const result: Record<string, unknown> = {
      resultType: 'complete',
      skills,
      ...this.cacheHints(),
    };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  }

  @McpMethod('skills/get', { resourceUris: { paths: ['uri'] } })
  get(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    // Eligibility is judged on the skill as it is now, not as it was at the last scan.
    const skill = this.fresh(this.resolver.resolveSkill(params.uri));
    if (
      !skill ||
      skill.excludedFromSkillsList !== undefined ||
      !this.visibility.isVisible(skill.uri, ctx.clientId)
    ) {
      throw GatewayError.invalidParams(`No skill is served at ${String(params.uri)}`, {
        uri: params.uri,
        reason: skill ? skill.excludedFromSkillsList : 'the skill no longer exists',
      });
    }
    const files = this.visibility.visibleFiles(skill, ctx.clientId);
    return { resultType: 'complete', skill: toSkillEntry(skill, files), ...this.cacheHints() };
  }

  @McpMethod('resources/directory/read', { resourceUris: { paths: ['uri'] } })
  readDirectory(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    const target = this.resolver.resolve(params.uri);
    if (
      target?.kind !== 'directory' ||
      !this.visibility.isVisible(target.skill.uri, ctx.clientId)
    ) {
      throw GatewayError.invalidParams(`${String(params.uri)} is not a directory resource`, {
        uri: params.uri,
      });
    }
    const skill = this.fresh(target.skill);
    // A folder whose every file is denied to this client is not one it can see.
    const files = skill ? this.visibility.visibleFiles(skill, ctx.clientId) : [];
    const children = skill ? directChildren(skill, files, target.relPath) : [];
    if (!skill || (target.relPath !== '' && children.length === 0)) {
      throw GatewayError.invalidParams(`${String(params.uri)} is not a directory resource`, {
        uri: params.uri,
      });
    }
    const page = paginate(children, params.cursor, RESOURCES_PAGE_SIZE);
    const result: Record<string, unknown> = { resultType: 'complete', resources: page.items };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  }

  /**
   * A skill whose files changed since they were hashed is scanned again before it is described;
   * undefined when it no longer exists (never the stale record, which would list files now gone).
   */
  private fresh(skill: SkillRecord): SkillRecord | undefined {
    if (isFresh(skill)) return skill;
    this.catalog.rescanSkill(skill.category, skill.name);
    return this.catalog.get(skill.category, skill.name);
  }

  private cacheHints() {
    return { ttlMs: this.config.resources.cache_ttl_seconds * 1000, cacheScope: CACHE_SCOPE };
  }
}

function directChildren(
  skill: SkillRecord,
  files: readonly SkillFile[],
  relPath: string,
): Array<Record<string, unknown>> {
  const prefix = relPath === '' ? '' : `${relPath}/`;
  const base = relPath === '' ? [] : relPath.split('/');
  const uriOf = (name: string) =>
    formatSkillUri({ category: skill.category, name: skill.name, path: [...base, name] });
  const dirs = new Set<string>();
  const entries: Array<Record<string, unknown>> = [];
  for (const file of files) {
    if (!file.relPath.startsWith(prefix)) continue;
    const [head, ...rest] = file.relPath.slice(prefix.length).split('/');
    if (rest.length > 0) dirs.add(head);
    else entries.push({ uri: uriOf(head), name: head, mimeType: file.mimeType, size: file.size });
  }
  const directories = [...dirs]
    .sort()
    .map((name) => ({ uri: uriOf(name), name, mimeType: DIRECTORY_MIME_TYPE }));
  return [...directories, ...entries];
}
