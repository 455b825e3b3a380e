import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { Request } from 'express';
import { validateStrictly } from '../../config/validation-problems';
import { REGISTRY_LIMITS } from '../upstream-registry.limits';
import { RegistryFormat } from '../upstream-record.store';
import { RegistryImportDto } from './registry-import.dto';

/** A registry body as sent: its text and the format to read it in. */
export interface RegistryBody {
  format: RegistryFormat;
  text: string;
}

/** A registry file may be 64 KiB; JSON escaping of it inside an import wrapper may double that. */
export const ADMIN_BODY_LIMIT_BYTES = 2 * REGISTRY_LIMITS.maxFileBytes + 1024;

const CONTENT_TYPES: Array<[RegExp, RegistryFormat]> = [
  [/^application\/(x-)?ya?ml\b|^text\/(x-)?ya?ml\b/i, 'yaml'],
  [/^application\/toml\b|^text\/(x-)?toml\b/i, 'toml'],
  [/^application\/json\b/i, 'json'],
];

/**
 * Reads an admin request's body as a registry file. The gateway has no global
 * body parser (the MCP routes read raw bytes), so it is read here, bounded,
 * after the admin guard. `allowWrapper` accepts `{ "format", "content" }` too.
 */
export async function readRegistryBody(req: Request, allowWrapper: boolean): Promise<RegistryBody> {
  const raw = await readBounded(req, ADMIN_BODY_LIMIT_BYTES);
  if (raw.length > ADMIN_BODY_LIMIT_BYTES) throw tooLarge(ADMIN_BODY_LIMIT_BYTES);
  const type = String(req.headers['content-type'] ?? 'application/json');
  const format = CONTENT_TYPES.find(([pattern]) => pattern.test(type))?.[1];
  if (!format) {
    throw invalid('content-type', 'must be application/json, application/yaml or application/toml');
  }
  const text = raw.toString('utf8');
  if (format !== 'json' || !allowWrapper) return { format, text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the registry parser reports where, like for a file.
    return { format, text };
  }
  if (!isWrapper(parsed)) return { format, text };
  const { instance, errors } = validateStrictly(RegistryImportDto, parsed);
  if (errors.length > 0) {
    const first = errors[0];
    const message = Object.values(first.constraints ?? {})[0] ?? 'is invalid';
    throw invalid(first.property, message);
  }
  return { format: instance.format, text: instance.content };
}

function isWrapper(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    'content' in value &&
    !('version' in value)
  );
}

async function readBounded(req: Request, limitBytes: number): Promise<Buffer> {
  if (Buffer.isBuffer(req.body)) return req.body;
  // A host application with its own JSON body parser has read the stream already.
  if (typeof req.body === 'object' && req.body !== null) {
    return Buffer.from(JSON.stringify(req.body), 'utf8');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) {
      throw new PayloadTooLargeException(
        `body exceeds ${limitBytes} bytes (the admin API's limit)`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limitBytes: number): PayloadTooLargeException {
  return new PayloadTooLargeException(`body exceeds ${limitBytes} bytes (the admin API's limit)`);
}

export function invalid(field: string, problem: string, problems?: string[]): BadRequestException {
  return new BadRequestException({
    statusCode: 400,
    error: 'Bad Request',
    message: `${field}: ${problem}`,
    field,
    ...(problems ? { problems } : {}),
  });
}
