import { IncomingMessage } from 'node:http';
import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';
import { JsonRpcRequest } from '../../json-rpc/json-rpc.types';
import { headerValue, PROTOCOL_VERSION_HEADER } from './http-headers';

export const METHOD_HEADER = 'mcp-method';
export const NAME_HEADER = 'mcp-name';

/**
 * The body field each method mirrors into Mcp-Name (2026-07-28, "Standard Request Headers";
 * ext-tasks, "Streamable HTTP: Routing Headers" for the task methods).
 */
const NAMED_BY: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const BASE64_SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;
/** RFC 9110 field-value characters: visible ASCII, space and tab. */
const FIELD_VALUE = /^[\x20-\x7e\t]*$/;

/**
 * The headers a 2026-07-28 request mirrors from its body, checked against it
 * so that a balancer routing on a header and the gateway acting on the body
 * can never disagree: MCP-Protocol-Version, Mcp-Method and, for calls, reads
 * and prompts, Mcp-Name (Base64 sentinel values decoded first). Throws the
 * HeaderMismatch error (-32020, HTTP 400) naming the header.
 */
export function checkMirroredHeaders(
  req: IncomingMessage,
  request: JsonRpcRequest,
  protocolVersion: string,
): void {
  expectHeader(req, PROTOCOL_VERSION_HEADER, 'MCP-Protocol-Version', protocolVersion);
  expectHeader(req, METHOD_HEADER, 'Mcp-Method', request.method);
  const field = NAMED_BY[request.method];
  if (field === undefined) return;
  const bodyValue = request.params?.[field];
  if (typeof bodyValue !== 'string') return; // the method itself refuses a missing name or uri
  expectHeader(req, NAME_HEADER, 'Mcp-Name', bodyValue, decodeSentinel);
}

function expectHeader(
  req: IncomingMessage,
  header: string,
  shown: string,
  bodyValue: string,
  decode: (raw: string, shown: string) => string = plain,
): void {
  const raw = headerValue(req, header);
  if (raw === undefined) throw mismatch(`Header mismatch: the ${shown} header is required`);
  const value = decode(raw, shown);
  if (value !== bodyValue) {
    throw mismatch(
      `Header mismatch: ${shown} header value ${quote(value)} does not match body value ${quote(bodyValue)}`,
    );
  }
}

function plain(raw: string, shown: string): string {
  if (!FIELD_VALUE.test(raw)) throw mismatch(`Header mismatch: ${shown} has invalid characters`);
  return raw;
}

/**
 * A value outside plain ASCII travels as `=?base64?<UTF-8 in Base64>?=`;
 * without both markers (case-sensitive) a value is taken literally.
 */
export function decodeSentinel(raw: string, shown: string): string {
  const value = plain(raw, shown);
  if (!value.startsWith('=?base64?') || !value.endsWith('?=')) return value;
  const encoded = BASE64_SENTINEL.exec(value)?.[1];
  if (encoded === undefined || encoded.length % 4 !== 0) {
    throw mismatch(`Header mismatch: ${shown} is not valid Base64 sentinel encoding`);
  }
  return Buffer.from(encoded, 'base64').toString('utf8');
}

/** Quoted and clipped: the message must not echo a long header back whole. */
export function quote(value: string): string {
  return `'${value.length > 128 ? `${value.slice(0, 128)}...` : value}'`;
}

export function mismatch(message: string): GatewayError {
  return new GatewayError(ErrorCode.HeaderMismatch, message);
}
