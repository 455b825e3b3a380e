import { findJsonTextBreach, JsonTextLimit } from '../common/json-text-shape';
import { LimitsConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { limitExceeded } from '../errors/limit-exceeded';
import { failure, invalidRequest } from './json-rpc.responses';
import { InboundEntry, InboundFrame, JsonRpcId } from './json-rpc.types';

export type MessageShapeLimits = Pick<
  LimitsConfig,
  'message_max_depth' | 'message_max_keys' | 'message_max_array_elements' | 'batch_max_requests'
>;

const BATCH_START = /^[ \t\n\r]*\[/;

const SHAPE_LIMIT_NAMES: Record<JsonTextLimit, keyof MessageShapeLimits> = {
  maxDepth: 'message_max_depth',
  maxKeys: 'message_max_keys',
  maxArrayElements: 'message_max_array_elements',
  maxOuterArrayElements: 'batch_max_requests',
};

const SHAPE_LIMIT_SUBJECTS: Record<JsonTextLimit, string> = {
  maxDepth: 'the nesting of the message',
  maxKeys: 'the number of object keys in the message',
  maxArrayElements: 'the number of array elements in the message',
  maxOuterArrayElements: 'the number of messages in the batch',
};

/**
 * Turns one transport frame (an HTTP body or a stdio line) into validated
 * JSON-RPC entries. Never throws: every defect becomes the error response the
 * spec prescribes, so a transport can always answer something well-formed.
 * The text's depth, keys and array elements are bounded before JSON.parse
 * builds anything (limits.message_*), in every part of the message, and so is
 * the number of messages in a batch (limits.batch_max_requests).
 */
export function parseFrame(raw: string | Buffer, limits: MessageShapeLimits): InboundFrame {
  const text = typeof raw === 'string' ? raw : decodeUtf8(raw);
  if (text === undefined) {
    return { kind: 'unparseable', response: parseError('body is not valid UTF-8') };
  }
  // A batch's array is one level more than its messages.
  const batchLevel = BATCH_START.test(text) ? 1 : 0;
  const passed = findJsonTextBreach(text, {
    maxDepth: limits.message_max_depth + batchLevel,
    maxKeys: limits.message_max_keys,
    maxArrayElements: limits.message_max_array_elements,
    maxOuterArrayElements: limits.batch_max_requests,
  });
  if (passed !== undefined) return shapeRefusal(passed, limits);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { kind: 'unparseable', response: parseError((err as Error).message) };
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return { kind: 'unparseable', response: invalidRequest(null, 'empty batch') };
    }
    return { kind: 'batch', entries: value.map((element) => validateMessage(element)) };
  }
  return { kind: 'single', entry: validateMessage(value) };
}

/** One -32600 for the whole frame, naming the limit; nothing of it was parsed. */
function shapeRefusal(passed: JsonTextLimit, limits: MessageShapeLimits): InboundFrame {
  const limit = SHAPE_LIMIT_NAMES[passed];
  const max = limits[limit];
  const error = limitExceeded(ErrorCode.InvalidRequest, limit, max, SHAPE_LIMIT_SUBJECTS[passed]);
  const response = failure(null, error.code, `Invalid Request: ${error.message}`, {
    ...error.data,
    retryable: false,
  });
  return { kind: 'unparseable', response, limit };
}

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
 * valid. Its depth was bounded before parsing (limits.message_max_depth).
 */
export function validateMessage(value: unknown): InboundEntry {
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
  if ('method' in value) {
    return validateCall(value, echoId, hasId);
  }
  if (hasId && ('result' in value || 'error' in value)) {
    return validateResponse(value, echoId as JsonRpcId);
  }
  return invalid(echoId, 'method is required');
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
