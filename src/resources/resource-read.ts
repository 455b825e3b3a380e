import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { resolveInside } from './safe-path';
import { SkillFile, SkillRecord } from './skill-record';

export interface ByteRange {
  start: number;
  /** Exclusive; defaults to the end of the file. */
  end?: number;
}

export interface FileSnapshot {
  bytes: Buffer;
  etag: string;
  lastModified: string;
}

// ignoreBOM keeps a leading BOM in the text, so the bytes round-trip exactly.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads a catalogued file as it is on disk now (the path is proven inside the
 * skills directory again at read time, in case it became a link since).
 */
export function readSkillFile(
  root: string,
  skill: SkillRecord,
  file: SkillFile,
  uri: string,
): FileSnapshot {
  const path = resolveInside(root, [skill.category, skill.name, ...file.relPath.split('/')]);
  if (!path)
    throw new GatewayError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, {
      data: { uri },
    });
  const bytes = readFileSync(path);
  const hex = createHash('sha256').update(bytes).digest('hex');
  return {
    bytes,
    etag: `"${hex.slice(0, 32)}"`,
    lastModified: new Date(file.mtimeMs).toISOString(),
  };
}

/** Validates an extension `range` param against the file size; -32602 when it cannot be served. */
export function checkRange(
  range: unknown,
  size: number,
): { start: number; end: number } | undefined {
  if (range === undefined) return undefined;
  if (typeof range !== 'object' || range === null)
    throw GatewayError.invalidParams('range must be an object {start, end?}');
  const { start, end = size } = range as Record<string, unknown>;
  if (!Number.isSafeInteger(start) || (start as number) < 0) {
    throw GatewayError.invalidParams('range.start must be a non-negative integer', {
      field: 'range.start',
    });
  }
  if (!Number.isSafeInteger(end) || (end as number) <= (start as number)) {
    throw GatewayError.invalidParams('range.end must be an integer greater than range.start', {
      field: 'range.end',
    });
  }
  if ((start as number) >= size) {
    throw GatewayError.invalidParams(
      `range.start ${String(start)} is beyond the resource size ${size}`,
      {
        field: 'range.start',
        size,
      },
    );
  }
  return { start: start as number, end: Math.min(end as number, size) };
}

/** Text when the bytes are UTF-8 (JSON carries them exactly), base64 otherwise. */
export function bytesToContent(bytes: Buffer): { text: string } | { blob: string } {
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { blob: bytes.toString('base64') };
  }
}
