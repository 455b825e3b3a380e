import { createHash } from 'node:crypto';
import { Dirent, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import matter from 'gray-matter';
import { mimeTypeOf } from './mime-type';
import { isInside } from './safe-path';
import { skillsListIneligibility } from './skill-naming';
import { SkillFile, SkillRecord } from './skill-record';
import { formatSkillUri, isServableName, SKILL_FILE } from './skill-uri';

export interface ScanWarning {
  path: string;
  problem: string;
}

export interface ScanResult {
  skills: SkillRecord[];
  warnings: ScanWarning[];
}

/**
 * Reads the skills directory: `<root>/<category>/<name>/SKILL.md`. Nothing
 * that resolves outside `root` is read; problems become warnings, never
 * exceptions, so one broken skill cannot take the catalog down.
 */
export function scanSkills(root: string): ScanResult {
  const warnings: ScanWarning[] = [];
  const skills: SkillRecord[] = [];
  for (const category of directories(root, root, warnings)) {
    for (const name of directories(root, join(root, category), warnings)) {
      const skill = scanSkill(root, category, name, warnings);
      if (skill) skills.push(skill);
    }
  }
  skills.sort((a, b) => a.uri.localeCompare(b.uri));
  return { skills, warnings };
}

/** One skill directory; undefined when it holds no SKILL.md (or is not safely inside root). */
export function scanSkill(
  root: string,
  category: string,
  name: string,
  warnings: ScanWarning[],
): SkillRecord | undefined {
  const dir = join(root, category, name);
  if (!isSafeDirectory(root, dir)) return undefined;
  const files = listFiles(root, dir, '', warnings);
  const skillFile = files.find((file) => file.relPath === SKILL_FILE);
  if (!skillFile) return undefined;
  const parsed = parseFrontMatter(readFileSync(skillFile.absPath, 'utf8'));
  if (parsed.error)
    warnings.push({ path: skillFile.absPath, problem: `broken front matter: ${parsed.error}` });
  const { data } = parsed;
  const base = {
    category,
    name,
    dir,
    uri: formatSkillUri({ category, name, path: [] }),
    skillFileUri: formatSkillUri({ category, name, path: [SKILL_FILE] }),
    frontmatter: data,
    frontmatterError: parsed.error,
    title: typeof data.title === 'string' ? data.title : undefined,
    description: typeof data.description === 'string' ? data.description : undefined,
    tags: Array.isArray(data.tags)
      ? data.tags.filter((t): t is string => typeof t === 'string')
      : [],
    body: parsed.body,
    skillFile,
    files,
    totalBytes: files.reduce((sum, file) => sum + file.size, 0),
    etag: `"${skillFile.digest.slice('sha256:'.length, 'sha256:'.length + 32)}"`,
  };
  return { ...base, excludedFromSkillsList: skillsListIneligibility(base) };
}

/** Hashes one file; also used to re-check a file before serving it. */
export function describeFile(absPath: string, relPath: string): SkillFile {
  const bytes = readFileSync(absPath);
  const stat = statSync(absPath);
  return {
    relPath,
    absPath,
    size: bytes.length,
    digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    mtimeMs: stat.mtimeMs,
    mimeType: mimeTypeOf(relPath),
  };
}

interface ParsedFrontMatter {
  data: Record<string, unknown>;
  body: string;
  error?: string;
}

const FRONT_MATTER_BLOCK = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;

export function parseFrontMatter(text: string): ParsedFrontMatter {
  try {
    // An options object bypasses gray-matter's process-wide cache, which would share one result object.
    const parsed = matter(text, {});
    // JSON form "verbatim": YAML dates become ISO strings, everything else passes unchanged.
    const data = JSON.parse(JSON.stringify(parsed.data ?? {})) as Record<string, unknown>;
    return { data, body: parsed.content };
  } catch (err) {
    return {
      data: {},
      body: text.replace(FRONT_MATTER_BLOCK, ''),
      error: (err as Error).message.split('\n')[0],
    };
  }
}

function directories(root: string, dir: string, warnings: ScanWarning[]): string[] {
  return servableEntries(dir, warnings)
    .filter((entry) => {
      if (entry.isDirectory()) return true;
      if (!entry.isSymbolicLink()) return false;
      const link = join(dir, entry.name);
      const problem = linkProblem(root, link);
      if (problem) warnings.push({ path: link, problem });
      return problem === undefined && isSafeDirectory(root, link);
    })
    .map((entry) => entry.name)
    .sort();
}

function listFiles(
  root: string,
  dir: string,
  prefix: string,
  warnings: ScanWarning[],
): SkillFile[] {
  const files: SkillFile[] = [];
  for (const entry of servableEntries(dir, warnings)) {
    const absPath = join(dir, entry.name);
    const relPath = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isSymbolicLink()) {
      const problem = linkProblem(root, absPath);
      if (problem) {
        warnings.push({ path: absPath, problem });
        continue;
      }
    }
    const stat = safeStat(absPath);
    if (stat?.isDirectory()) files.push(...listFiles(root, absPath, relPath, warnings));
    else if (stat?.isFile()) {
      // A file can vanish or be unreadable between listing and hashing; it is skipped, not fatal.
      try {
        files.push(describeFile(absPath, relPath));
      } catch (err) {
        warnings.push({ path: absPath, problem: `cannot read file: ${(err as Error).message}` });
      }
    }
  }
  return files.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
}

function entries(dir: string, warnings: ScanWarning[]): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    warnings.push({ path: dir, problem: `cannot read directory: ${(err as Error).message}` });
    return [];
  }
}

/** Entries whose names can be written as skill:// segments; the others are skipped with a warning. */
function servableEntries(dir: string, warnings: ScanWarning[]): Dirent[] {
  return entries(dir, warnings).filter((entry) => {
    if (isServableName(entry.name)) return true;
    warnings.push({
      path: join(dir, entry.name),
      problem:
        'name contains a backslash or a control character, so no skill:// URI can name it; ignored',
    });
    return false;
  });
}

/**
 * Why a symbolic link is not followed, or undefined when it may be: it must
 * resolve inside the skills directory, and a directory link must not point
 * at a directory that holds it (that would be a loop).
 */
function linkProblem(root: string, link: string): string | undefined {
  const target = realTarget(link);
  if (!target || !isInside(root, target)) {
    return 'symbolic link leaves the skills directory (or is broken); not followed';
  }
  const holder = realTarget(dirname(link));
  if (holder !== undefined && isInside(target, holder))
    return 'symbolic link loops back to its own directory; not followed';
  return undefined;
}

function isSafeDirectory(root: string, dir: string): boolean {
  const target = realTarget(dir);
  return target !== undefined && isInside(root, target) && safeStat(target)?.isDirectory() === true;
}

function realTarget(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function safeStat(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
