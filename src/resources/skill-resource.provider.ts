import { Injectable } from '@nestjs/common';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { META_ETAG, SKILL_MIME_TYPE, toResourceEntry } from './resource-entry';
import {
  ResolvedResource,
  ResourceEntry,
  ResourceProvider,
  ResourceReadResult,
  ResourceTemplateEntry,
} from './resource-provider';
import { skillFileUri } from './skill-uri';
import { bytesToContent, checkRange, readSkillFile } from './resource-read';
import { SkillCatalog } from './skill-catalog';
import { SkillFile, SkillRecord } from './skill-record';
import { SkillResolver } from './skill-resolver';

export const META_NOT_MODIFIED = 'owlclaw/notModified';

const SKILL_TEMPLATES: readonly ResourceTemplateEntry[] = [
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
];

/**
 * The built-in resource provider: the skills catalog as `skill://` resources.
 * Each skill is listed by its seed URI (which reads its SKILL.md); every file
 * of a skill is readable, with the extension params `range` {start, end?}
 * (bytes, end exclusive) and `ifNoneMatch` (an ETag). Changes reach
 * subscribers through ResourcesChangeNotifier, which watches the catalog.
 */
@Injectable()
export class SkillResourceProvider implements ResourceProvider {
  readonly name = 'skills';
  readonly schemes = ['skill'];
  readonly supportsSubscriptions = true;
  private listCache?: { version: number; entries: ResourceEntry[] };

  constructor(
    private readonly catalog: SkillCatalog,
    private readonly resolver: SkillResolver,
  ) {}

  /** Built once per catalog version; filters and pages slice the cached array. */
  list(): readonly ResourceEntry[] {
    if (this.listCache?.version !== this.catalog.version) {
      const entries = this.catalog.list().map(toResourceEntry);
      this.listCache = { version: this.catalog.version, entries };
    }
    return this.listCache.entries;
  }

  templates(): readonly ResourceTemplateEntry[] {
    return SKILL_TEMPLATES;
  }

  /** -32602 for a malformed skill URI, -32002 for one naming no file (the seed URI reads SKILL.md). */
  resolve(uri: string): ResolvedResource {
    const { skill, file } = this.resolver.resolveReadable(uri);
    // The file itself, so that a deny rule on it (or a folder above it) holds.
    return {
      visibilityUri: skillFileUri(skill, file),
      read: ({ params }) => this.read(uri, skill, file, params),
    };
  }

  private read(
    uri: string,
    skill: SkillRecord,
    file: SkillFile,
    params: JsonRpcParams,
  ): ResourceReadResult {
    if (!this.catalog.rootDir) {
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
}
