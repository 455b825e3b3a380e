import { Injectable } from '@nestjs/common';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { SkillCatalog } from './skill-catalog';
import { SkillFile, SkillRecord } from './skill-record';
import { parseSkillUri, SKILL_FILE } from './skill-uri';

/** What a `skill://` URI names: one file of a skill, or a directory inside it. */
export type SkillTarget =
  | { kind: 'file'; skill: SkillRecord; file: SkillFile }
  | { kind: 'directory'; skill: SkillRecord; relPath: string };

/**
 * Maps URIs to catalog entries. Only files the catalog listed can be named,
 * so no URI reaches a path outside the skills directory.
 */
@Injectable()
export class SkillResolver {
  constructor(private readonly catalog: SkillCatalog) {}

  /** Throws -32602 for a malformed URI, undefined for a well-formed one that names nothing. */
  resolve(uri: unknown): SkillTarget | undefined {
    const parsed = parseSkillUri(uri);
    const skill = this.catalog.get(parsed.category, parsed.name);
    if (!skill) return undefined;
    const relPath = parsed.path.join('/');
    if (relPath === '') return { kind: 'directory', skill, relPath: '' };
    const file = skill.files.find((f) => f.relPath === relPath);
    if (file) return { kind: 'file', skill, file };
    const isDirectory = skill.files.some((f) => f.relPath.startsWith(`${relPath}/`));
    return isDirectory ? { kind: 'directory', skill, relPath } : undefined;
  }

  /** The file a read of this URI returns; the seed URI of a skill reads its SKILL.md. */
  resolveReadable(uri: unknown): { skill: SkillRecord; file: SkillFile } {
    const target = this.resolve(uri);
    if (target?.kind === 'file') return target;
    if (target?.kind === 'directory' && target.relPath === '')
      return { skill: target.skill, file: target.skill.skillFile };
    throw new GatewayError(ErrorCode.ResourceNotFound, `Resource not found: ${String(uri)}`, {
      data: { uri },
    });
  }

  /** A skill named by its SKILL.md URI (or seed URI); -32602 otherwise, as the Skills extension asks. */
  resolveSkill(uri: unknown): SkillRecord {
    const target = this.resolve(uri);
    const named =
      target?.kind === 'file'
        ? target.file.relPath === SKILL_FILE
        : target?.kind === 'directory' && target.relPath === '';
    if (!target || !named)
      throw GatewayError.invalidParams(`No skill is served at ${String(uri)}`, { uri });
    return target.skill;
  }
}
