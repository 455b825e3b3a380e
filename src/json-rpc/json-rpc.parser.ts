import { ErrorCode } from '../errors/error-code';
import { failure, invalidRequest } from './json-rpc.responses';
import { InboundEntry, InboundFrame, JsonRpcId } from './json-rpc.types';

/**
 * Turns one transport frame (an HTTP body or a stdio line) into validated
 * JSON-RPC entries. Never throws: every defect becomes the error response the
 * spec prescribes, so a transport can always answer something well-formed.
 */
export function parseFrame(raw: string | Buffer): InboundFrame {
  const text = typeof raw === 'string' ? raw : decodeUtf8(raw);
  if (text === undefined) {
    return { kind: 'unparseable', response: parseError('body is not valid UTF-8') };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { kind: 'unparseable', response: parseError((err as Error).message) };
  }
  // Nesting deeper than the limit takes an opening and a closing bracket per level: a shorter
  // text cannot hold it, and the walk over every parsed node is skipped.
  const mayBeDeep = text.length > 2 * MAX_MESSAGE_DEPTH;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return { kind: 'unparseable', response: invalidRequest(null, 'empty batch') };
    }
    return { kind: 'batch', entries: value.map((element) => validateMessage(element, mayBeDeep)) };
  }
  return { kind: 'single', entry: validateMessage(value, mayBeDeep) };
}

/**
 * Deepest nesting of arrays and objects accepted in one message (the message
 * object itself is level 1). Deeper messages are refused with -32600 before
 * any handler, validator or serializer recurses through them and runs out of stack.
 */
export const MAX_MESSAGE_DEPTH = 1000;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(raw: Buffer): string | undefined {
  try {
    return utf8.decode(raw);
  } catch {
    return undefined;
  }
}

function parseError(detail: string) {
  return failure(null, ErrorCode.ParseError, `Parse error: ${detail}`, { retryable: false });
}

function isValidId(id: unknown): id is JsonRpcId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates one element; the id is echoed on errors only when it is itself
 * valid. `mayBeDeep` false: the caller knows the message is too short to nest
 * past MAX_MESSAGE_DEPTH.
 */
export function validateMessage(value: unknown, mayBeDeep = true): InboundEntry {
  if (!isPlainObject(value)) {
    return invalid(null, 'message must be a JSON object');
  }
  const hasId = 'id' in value;
  const echoId = hasId && isValidId(value.id) ? value.id : null;
  if (value.jsonrpc !== '2.0') {
    return invalid(echoId, 'jsonrpc must be exactly "2.0"');
  }
  if (hasId && !isValidId(value.id)) {
    return invalid(null, 'id must be a string or an integer (null is not allowed)');
  }
  if (mayBeDeep && exceedsDepth(value, MAX_MESSAGE_DEPTH)) {
    return invalid(echoId, `message nesting exceeds ${MAX_MESSAGE_DEPTH} levels`);
  }
  if ('method' in value) {
    return validateCall(value, echoId, hasId);
  }
  if (hasId && ('result' in value || 'error' in value)) {
    return validateResponse(value, echoId as JsonRpcId);
  }
  return invalid(echoId, 'method is required');
}

/** Iterative, so that the check itself cannot overflow the stack. */
function exceedsDepth(message: Record<string, unknown>, limit: number): boolean {
  const pending: Array<[object, number]> = [[message, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) pending.push([child as object, depth + 1]);
    }
  }
  return false;
}

function validateCall(
  value: Record<string, unknown>,
  id: JsonRpcId | null,
  hasId: boolean,
): InboundEntry {
  const { method, params } = value;
  if (typeof method !== 'string' || method.length === 0) {
    return invalid(id, 'method must be a non-empty string');
  }
  if (params !== undefined && !isPlainObject(params)) {
    return invalid(id, 'params must be an object when present');
  }
  const base =
    params === undefined
      ? { jsonrpc: '2.0' as const, method }
      : { jsonrpc: '2.0' as const, method, params };
  if (hasId && id !== null) {
    return { kind: 'request', message: { ...base, id } };
  }
  return { kind: 'notification', message: base };
}

function validateResponse(value: Record<string, unknown>, id: JsonRpcId): InboundEntry {
  if ('result' in value && 'error' in value) {
    return invalid(id, 'a response carries either result or error, not both');
  }
  if ('result' in value) {
    return { kind: 'response', message: { jsonrpc: '2.0', id, result: value.result } };
  }
  const error = value.error;
  if (
    !isPlainObject(error) ||
    typeof error.code !== 'number' ||
    typeof error.message !== 'string'
  ) {
    return invalid(id, 'error must be an object with a numeric code and a string message');
  }
  const errorObject =
    error.data === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, data: error.data };
  return { kind: 'response', message: { jsonrpc: '2.0', id, error: errorObject } };
}

function invalid(id: JsonRpcId | null, problem: string): InboundEntry {
  return { kind: 'invalid', response: invalidRequest(id, problem) };
}
