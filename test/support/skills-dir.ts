import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Builds skills directories for tests: a fresh temp dir per suite, written
 * file by file, so that no test depends on the repository's ./capabilities.
 */

/** A fresh directory under the OS temp dir, as its real path (so paths compare exactly). */
export function makeTempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `owlclaw-${prefix}-`)));
}

export function removeDir(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/** Writes a file, creating its parent directories. */
export function writeFileDeep(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** Writes `<root>/<category>/<name>/<relPath>` for every entry of `files`; returns the skill dir. */
export function writeSkill(
  root: string,
  category: string,
  name: string,
  files: Record<string, string | Buffer>,
): string {
  const dir = join(root, category, name);
  mkdirSync(dir, { recursive: true });
  for (const [relPath, content] of Object.entries(files))
    writeFileDeep(join(dir, relPath), content);
  return dir;
}

/** A SKILL.md with YAML front matter written from simple values (strings, string arrays). */
export function skillMarkdown(
  frontmatter: Record<string, string | string[]>,
  body: string,
  eol = '\n',
): string {
  const lines = Object.entries(frontmatter).map(([key, value]) =>
    Array.isArray(value)
      ? `${key}: [${value.map((v) => JSON.stringify(v)).join(', ')}]`
      : `${key}: ${JSON.stringify(value)}`,
  );
  return ['---', ...lines, '---', ...body.split('\n')].join(eol);
}

/** `sha256:<64 hex>` of raw bytes, computed here independently of the gateway. */
export function sha256Digest(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Every regular file below `dir`, as `/`-separated paths relative to it, sorted. */
export function listFilesRecursively(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFilesRecursively(join(dir, entry.name), rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out.sort();
}

/** Bytes that are not valid UTF-8 anywhere (0xff never occurs in UTF-8), so reads must be blobs. */
export function binaryBytes(length: number, seed = 7): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = i % 16 === 0 ? 0xff : x & 0xff;
  }
  return bytes;
}
