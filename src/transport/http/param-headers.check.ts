import { IncomingMessage } from 'node:http';
import { JsonSchemaObject } from '../../tools/handler-options';
import { headerValue } from './http-headers';
import { decodeSentinel, mismatch, quote } from './mirrored-headers.check';

/** One `x-mcp-header` annotation: the header's name part and where its value is in the arguments. */
interface ParamHeader {
  name: string;
  path: string[];
  type: 'string' | 'integer' | 'boolean';
}

/** How deep `properties` chains are followed; a schema nested deeper mirrors nothing past it. */
const MAX_DEPTH = 8;
const annotationsOf = new WeakMap<JsonSchemaObject, ParamHeader[]>();

/**
 * The `x-mcp-header` parameters of a tool's inputSchema (2026-07-28, "Custom
 * Headers from Tool Parameters"): primitive properties reached through
 * `properties` keys only. Read once per schema.
 */
export function paramHeadersOf(schema: JsonSchemaObject): ParamHeader[] {
  let found = annotationsOf.get(schema);
  if (!found) {
    found = [];
    collect(schema, [], found);
    annotationsOf.set(schema, found);
  }
  return found;
}

function collect(schema: unknown, path: string[], into: ParamHeader[]): void {
  if (path.length > MAX_DEPTH || typeof schema !== 'object' || schema === null) return;
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null) return;
  for (const [key, property] of Object.entries(properties as Record<string, unknown>)) {
    if (typeof property !== 'object' || property === null) continue;
    const { type, 'x-mcp-header': name } = property as { type?: unknown; 'x-mcp-header'?: unknown };
    if (
      typeof name === 'string' &&
      (type === 'string' || type === 'integer' || type === 'boolean')
    ) {
      into.push({ name, path: [...path, key], type });
    }
    collect(property, [...path, key], into);
  }
}

/**
 * Checks every `Mcp-Param-{Name}` header of a tools/call against the
 * argument it mirrors: present whenever the argument has a value (null and
 * absent need none), equal after Base64 sentinel decoding (integers compared
 * as numbers, booleans as `true`/`false`). Throws HeaderMismatch (-32020).
 */
export function checkParamHeaders(
  req: IncomingMessage,
  schema: JsonSchemaObject,
  args: unknown,
): void {
  for (const param of paramHeadersOf(schema)) {
    const value = valueAt(args, param.path);
    if (value === undefined || value === null) continue;
    const shown = `Mcp-Param-${param.name}`;
    const raw = headerValue(req, `mcp-param-${param.name.toLowerCase()}`);
    if (raw === undefined) throw mismatch(`Header mismatch: the ${shown} header is required`);
    const header = decodeSentinel(raw, shown);
    if (!matches(param.type, header, value)) {
      throw mismatch(
        `Header mismatch: ${shown} header value ${quote(header)} does not match body value ${quote(JSON.stringify(value))}`,
      );
    }
  }
}

function matches(type: ParamHeader['type'], header: string, value: unknown): boolean {
  if (type === 'integer') return header.trim() !== '' && Number(header) === value;
  if (type === 'boolean') return header === String(value);
  return header === value;
}

function valueAt(args: unknown, path: string[]): unknown {
  let at = args;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}
