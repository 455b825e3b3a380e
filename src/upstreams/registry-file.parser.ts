import * as path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { LineCounter, parseDocument } from 'yaml';

export type ParsedFile = { ok: true; data: unknown } | { ok: false; problem: string };

/** The extensions a registry file may have; the format follows from it. */
export const REGISTRY_EXTENSIONS = ['.yaml', '.yml', '.json', '.toml'] as const;

export function isRegistryFileName(name: string): boolean {
  return (REGISTRY_EXTENSIONS as readonly string[]).includes(path.extname(name).toLowerCase());
}

/**
 * Parses a registry file's text by its extension into plain JSON data (TOML
 * dates become ISO strings). Syntax errors give line and column but never
 * quote the text: a file may hold a literal secret.
 */
export function parseRegistryFile(name: string, bytes: Buffer): ParsedFile {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { ok: false, problem: 'is not valid UTF-8 text' };
  }
  const extension = path.extname(name).toLowerCase();
  try {
    if (extension === '.json') return parsed(JSON.parse(text) as unknown);
    if (extension === '.toml') return parsed(parseToml(text));
    return parseYaml(text);
  } catch (err) {
    return { ok: false, problem: syntaxProblem(extension, text, err) };
  }
}

function parseYaml(text: string): ParsedFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    const { line, col } = lineCounter.linePos(error.pos[0]);
    // Some messages carry their own position and an excerpt of the text; keep the first clause.
    const message = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    return { ok: false, problem: `YAML syntax error at line ${line}, column ${col}: ${message}` };
  }
  return parsed(doc.toJS());
}

/** A JSON round trip leaves only plain objects, arrays and scalars for the schema to check. */
function parsed(data: unknown): ParsedFile {
  return { ok: true, data: JSON.parse(JSON.stringify(data ?? null)) as unknown };
}

function syntaxProblem(extension: string, text: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (extension === '.json') {
    // V8 quotes the text around the error; only the position is kept.
    const position = /position (\d+)/.exec(message);
    if (!position) return 'JSON syntax error (the text ends too early or is not JSON)';
    const { line, column } = lineAndColumn(text, Number(position[1]));
    return `JSON syntax error at line ${line}, column ${column}`;
  }
  if (extension === '.toml') {
    const { line, column } = err as { line?: unknown; column?: unknown };
    const at =
      typeof line === 'number' && typeof column === 'number'
        ? ` at line ${line}, column ${column}`
        : '';
    // smol-toml appends an excerpt of the text after the first line.
    const first = message.split('\n')[0].replace(/^Invalid TOML document: /, '');
    return `TOML syntax error${at}: ${first}`;
  }
  return `YAML error: ${message.split('\n')[0]}`;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
