/**
 * The fuzzing oracle: what a JSON-RPC 2.0 / MCP server must answer to a frame,
 * derived from the specifications (and the gateway's documented limits), not
 * from the gateway's parser. The reference decoding uses the platform's own
 * TextDecoder and JSON.parse, so "is this UTF-8" and "is this JSON" are never
 * re-implemented here.
 */
import { DEFAULT_CONFIG } from '../../../src/config/config.defaults';

export type JsonRpcIdValue = string | number;
export type Json = Record<string, unknown>;

/** 'ok' is a result; a number is an error code. */
export type Outcome = 'ok' | number;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;

/** The limits the fuzzed gateways run with (the defaults). */
export const LIMITS = DEFAULT_CONFIG.limits;

/** One expected response: its id and the outcomes that are acceptable for it. */
export interface Answer {
  id: JsonRpcIdValue | null;
  outcomes: readonly Outcome[];
  /**
   * When set, an error answer may name (in `error.data.limit`) only one of
   * these limits (none when empty); with `mustNameLimit` it has to name one.
   */
  limits?: readonly string[];
  mustNameLimit?: boolean;
}

/** Every method the gateway (with or without the test fixtures) registers; "unknown" names avoid them. */
export const KNOWN_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'notifications/initialized',
  'ping',
  'logging/setLevel',
  'notifications/cancelled',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'resources/directory/read',
  'skills/list',
  'skills/get',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'fixture/raise',
  'fixture/echo',
  'fixture/sleep',
  'fixture/notify',
  'fixture/ask',
  'fixture/unserializable',
  'probe/run',
  'probe/counters',
  'govfixture/counts',
]);

/** Methods the initialization gate lets through (MCP: pings and the lifecycle itself). */
export const BEFORE_INITIALIZE: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'notifications/initialized',
  'notifications/cancelled',
]);

export type TransportName = 'http' | 'stdio';

/** The state of the session a frame is sent on. */
export interface SessionState {
  transport: TransportName;
  /** False: initialize has not been answered yet (stdio only; HTTP has no such session). */
  initialized: boolean;
  /** The negotiated revision allows JSON-RPC batches (2025-03-26 and earlier, or not negotiated yet). */
  batching: boolean;
}

/** A top-level frame, decoded and parsed by the reference implementation. */
export type FrameClass =
  | { kind: 'unparseable'; answer: Answer }
  | { kind: 'single'; value: unknown }
  | { kind: 'batch'; values: unknown[] };

/** How one message (a frame or a batch element) must be treated. */
export type ElementClass =
  | { kind: 'invalid'; answer: Answer }
  | { kind: 'request'; id: JsonRpcIdValue; method: string; params?: Json }
  | { kind: 'notification'; method: string }
  | { kind: 'response' };

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function classifyFrame(bytes: Uint8Array): FrameClass {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { kind: 'unparseable', answer: { id: null, outcomes: [PARSE_ERROR] } };
  }
  // The gateway bounds the text's shape before it parses it, valid JSON or not.
  const batchLevel = /^[ \t\n\r]*\[/.test(text) ? 1 : 0;
  if (textDepth(text) > LIMITS.message_max_depth + batchLevel) {
    return { kind: 'unparseable', answer: shapeRefused('limits.message_max_depth') };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'unparseable', answer: { id: null, outcomes: [PARSE_ERROR] } };
  }
  // A batch's messages are counted apart from the arrays inside them, in the same pass.
  const messages = Array.isArray(value) ? value.length : 0;
  const { keys, elements } = memberCounts(value);
  const wide = [
    ...(messages > LIMITS.batch_max_requests ? ['limits.batch_max_requests'] : []),
    ...(keys > LIMITS.message_max_keys ? ['limits.message_max_keys'] : []),
    ...(elements - messages > LIMITS.message_max_array_elements
      ? ['limits.message_max_array_elements']
      : []),
  ];
  if (wide.length > 0) return { kind: 'unparseable', answer: shapeRefused(...wide) };
  if (Array.isArray(value)) {
    // JSON-RPC 2.0: an empty array is an invalid request answered by one error.
    if (value.length === 0) {
      return { kind: 'unparseable', answer: { id: null, outcomes: [INVALID_REQUEST] } };
    }
    return { kind: 'batch', values: value };
  }
  return { kind: 'single', value };
}

/** A frame refused for its shape before it was parsed: one -32600, id null, naming the limit. */
function shapeRefused(...limits: string[]): Answer {
  return { id: null, outcomes: [INVALID_REQUEST], limits, mustNameLimit: true };
}

/** Deepest bracket nesting of a text, strings left out (whether or not it is valid JSON). */
function textDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (const char of text.replace(/"(?:[^"\\]|\\.)*"?/g, '""')) {
    if (char === '[' || char === '{') max = Math.max(max, ++depth);
    else if (char === ']' || char === '}') depth = Math.max(0, depth - 1);
  }
  return max;
}

export function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** MCP: ids are strings or integers (never null); a JSON number must be an exact integer. */
export function isValidId(id: unknown): id is JsonRpcIdValue {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

/** Nesting depth of a JSON value: a scalar is 0, a container is 1 + its deepest child. */
export function depthOf(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, above] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    const depth = above + 1;
    if (depth > max) max = depth;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      stack.push([child, depth]);
    }
  }
  return max;
}

/** Keys of all objects and elements of all arrays in a JSON value, nested ones included. */
function memberCounts(value: unknown): { keys: number; elements: number } {
  const counts = { keys: 0, elements: 0 };
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const children = Array.isArray(node) ? (node as unknown[]) : Object.values(node);
    if (Array.isArray(node)) counts.elements += children.length;
    else counts.keys += children.length;
    for (const child of children) stack.push(child);
  }
  return counts;
}

/** Keys of all objects in a JSON value, nested ones included. */
export function keyCount(value: unknown): number {
  return memberCounts(value).keys;
}

/** The limits.argument_* an `arguments` value passes: its JSON text's bytes, its keys, its depth. */
export function argumentLimitsPassed(value: unknown): string[] {
  if (value === undefined) return [];
  const passed: string[] = [];
  if (Buffer.byteLength(JSON.stringify(value)) > LIMITS.argument_max_bytes) {
    passed.push('limits.argument_max_bytes');
  }
  if (keyCount(value) > LIMITS.argument_max_keys) passed.push('limits.argument_max_keys');
  if (depthOf(value) > LIMITS.argument_max_depth) passed.push('limits.argument_max_depth');
  return passed;
}

/** JSON bytes of the capabilities and clientInfo an initialize asks to keep (absent ones: none). */
function sessionMetadataBytes(params: Json | undefined): number {
  const bytes = (value: unknown) =>
    value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value));
  return bytes(params?.capabilities) + bytes(params?.clientInfo);
}

/**
 * The gateway measures a single initialize's metadata before anything else
 * looks at it (its params' validity, or whether the session is initialized),
 * and refuses it when too large; in a batch, initialize is refused unmeasured.
 */
function metadataOverLimit(params: Json | undefined): boolean {
  return sessionMetadataBytes(params) > LIMITS.session_metadata_bytes;
}

const has = (value: Json, key: string) => Object.prototype.hasOwnProperty.call(value, key);

export function classifyElement(value: unknown): ElementClass {
  const invalid = (id: JsonRpcIdValue | null): ElementClass => ({
    kind: 'invalid',
    answer: { id, outcomes: [INVALID_REQUEST] },
  });
  if (!isPlainObject(value)) return invalid(null);
  const hasId = has(value, 'id');
  const echo = hasId && isValidId(value.id) ? value.id : null;
  if (value.jsonrpc !== '2.0') return invalid(echo);
  if (hasId && echo === null) return invalid(null);
  if (has(value, 'method')) {
    const { method, params } = value;
    if (typeof method !== 'string' || method === '') return invalid(echo);
    if (has(value, 'params') && !isPlainObject(params)) return invalid(echo);
    if (echo === null) return { kind: 'notification', method };
    return { kind: 'request', id: echo, method, params: params as Json | undefined };
  }
  if (echo !== null && (has(value, 'result') || has(value, 'error'))) {
    if (has(value, 'result') && has(value, 'error')) return invalid(echo);
    if (has(value, 'error')) {
      const error = value.error;
      if (
        !isPlainObject(error) ||
        typeof error.code !== 'number' ||
        typeof error.message !== 'string'
      ) {
        return invalid(echo);
      }
    }
    return { kind: 'response' };
  }
  return invalid(echo);
}

/**
 * MCP InitializeRequest params as the gateway documents them: protocolVersion
 * a non-empty string, capabilities an object when given (null is not), clientInfo an
 * Implementation object with a non-empty name and a version string.
 */
export function initializeParamsValid(params: Json | undefined): boolean {
  const p = params ?? {};
  if (typeof p.protocolVersion !== 'string' || p.protocolVersion.length === 0) return false;
  if (p.capabilities !== undefined && !isPlainObject(p.capabilities)) return false;
  const info = p.clientInfo;
  return (
    isPlainObject(info) &&
    typeof info.name === 'string' &&
    info.name.length > 0 &&
    typeof info.version === 'string'
  );
}

/** What a request to `method` may be answered with, on this session. */
export function methodOutcomes(
  method: string,
  params: Json | undefined,
  session: SessionState,
  inBatch: boolean,
): readonly Outcome[] {
  if (inBatch && method === 'initialize') return [INVALID_REQUEST];
  if (!KNOWN_METHODS.has(method)) return [METHOD_NOT_FOUND];
  if (method === 'ping') return ['ok'];
  // Notification methods called with an id: their handlers return nothing, answered as {}.
  if (method.startsWith('notifications/') && BEFORE_INITIALIZE.has(method)) return ['ok'];
  if (method === 'initialize') {
    if (metadataOverLimit(params) || !initializeParamsValid(params)) return [INVALID_PARAMS];
    return session.initialized ? [INVALID_REQUEST] : ['ok'];
  }
  // The initialization gate: only initialize and ping come before it.
  if (!session.initialized) return [INVALID_REQUEST];
  if (method === 'tools/list') {
    return params?.cursor === undefined ? ['ok'] : ['ok', INVALID_PARAMS];
  }
  // Fuzzed calls always carry an undeclared argument (zz_unknown): over a limit or not, -32602.
  if (method === 'tools/call' || method === 'prompts/get') return [INVALID_PARAMS];
  throw new Error(`the oracle has no rule for requests to ${method}`);
}

/** The answer one element gets, or undefined for notifications and responses. */
export function expectedAnswer(
  element: ElementClass,
  session: SessionState,
  inBatch: boolean,
): Answer | undefined {
  switch (element.kind) {
    case 'invalid':
      return element.answer;
    case 'request':
      return {
        id: element.id,
        outcomes: methodOutcomes(element.method, element.params, session, inBatch),
        ...limitsNamed(element.method, element.params, session, inBatch),
      };
    default:
      return undefined;
  }
}

/** Which limits an error answer to a request may (or must) name. */
function limitsNamed(
  method: string,
  params: Json | undefined,
  session: SessionState,
  inBatch: boolean,
): Pick<Answer, 'limits' | 'mustNameLimit'> {
  if (method === 'initialize' && !inBatch && metadataOverLimit(params)) {
    return { limits: ['limits.session_metadata_bytes'], mustNameLimit: true };
  }
  if (method === 'initialize') return { limits: [] };
  if ((method !== 'tools/call' && method !== 'prompts/get') || !session.initialized) return {};
  // Arguments over a limit are refused naming it; under every limit, no limit may be named.
  const passed = argumentLimitsPassed(params?.arguments);
  return { limits: passed, mustNameLimit: passed.length > 0 };
}

/** What comes back for a frame: nothing, one response, or a batch of responses. */
export type Reply =
  { kind: 'none' } | { kind: 'single'; answer: Answer } | { kind: 'batch'; answers: Answer[] };

const NOT_BATCHING: Answer = { id: null, outcomes: [INVALID_REQUEST] };

/** stdio: the line a frame (written as one line) gets, if any. */
export function expectStdio(line: Uint8Array, session: SessionState): Reply {
  let end = line.length;
  if (end > 0 && line[end - 1] === 0x0d) end -= 1;
  const body = line.subarray(0, end);
  // Blank lines are not messages.
  if (body.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d))
    return { kind: 'none' };
  const frame = classifyFrame(body);
  if (frame.kind === 'unparseable') return { kind: 'single', answer: frame.answer };
  if (frame.kind === 'single') {
    const answer = expectedAnswer(classifyElement(frame.value), session, false);
    return answer ? { kind: 'single', answer } : { kind: 'none' };
  }
  if (!session.batching) return { kind: 'single', answer: NOT_BATCHING };
  const answers = frame.values
    .map((value) => expectedAnswer(classifyElement(value), session, true))
    .filter((a): a is Answer => a !== undefined);
  return answers.length > 0 ? { kind: 'batch', answers } : { kind: 'none' };
}

export interface HttpExpectation {
  status: number;
  reply: Reply;
  /** A single initialize request: a success opens a new session (its id comes in Mcp-Session-Id). */
  opensSession: boolean;
}

/**
 * Streamable HTTP: the status and body a POST /mcp gets. `hasSession` is
 * whether the POST carries the Mcp-Session-Id of a live session.
 */
export function expectHttp(
  bytes: Uint8Array,
  session: SessionState,
  hasSession: boolean,
): HttpExpectation {
  const frame = classifyFrame(bytes);
  if (frame.kind === 'unparseable') {
    return { status: 400, reply: { kind: 'single', answer: frame.answer }, opensSession: false };
  }
  if (frame.kind === 'single') {
    const element = classifyElement(frame.value);
    if (element.kind === 'request' && element.method === 'initialize') {
      // initialize opens a new session whatever the headers say, and runs on it.
      const answer = expectedAnswer(element, { ...session, initialized: false }, false)!;
      return { status: 200, reply: { kind: 'single', answer }, opensSession: true };
    }
    if (!hasSession) return sessionRequired();
    const answer = expectedAnswer(element, session, false);
    return answer
      ? { status: 200, reply: { kind: 'single', answer }, opensSession: false }
      : { status: 202, reply: { kind: 'none' }, opensSession: false };
  }
  if (!hasSession) return sessionRequired();
  const answers = frame.values
    .map((value) => expectedAnswer(classifyElement(value), session, true))
    .filter((a): a is Answer => a !== undefined);
  // A revision without batches refuses any batch, notifications-only too (as over stdio).
  if (!session.batching) {
    return { status: 200, reply: { kind: 'single', answer: NOT_BATCHING }, opensSession: false };
  }
  // Nothing in it asks for an answer: acknowledged with 202.
  if (answers.length === 0) return { status: 202, reply: { kind: 'none' }, opensSession: false };
  return { status: 200, reply: { kind: 'batch', answers }, opensSession: false };
}

function sessionRequired(): HttpExpectation {
  return {
    status: 400,
    reply: { kind: 'single', answer: { id: null, outcomes: [INVALID_REQUEST] } },
    opensSession: false,
  };
}

/** Problems with a response envelope (empty when it is a valid JSON-RPC 2.0 response). */
export function envelopeProblems(response: unknown): string[] {
  if (!isPlainObject(response)) return ['a response must be a JSON object'];
  const problems: string[] = [];
  const extra = Object.keys(response).filter(
    (key) => !['jsonrpc', 'id', 'result', 'error'].includes(key),
  );
  if (extra.length > 0) problems.push(`unexpected members ${extra.join(', ')}`);
  if (response.jsonrpc !== '2.0') problems.push('jsonrpc must be "2.0"');
  if (!has(response, 'id')) problems.push('id is missing');
  else if (response.id !== null && !isValidId(response.id)) problems.push('id has a bad type');
  if (has(response, 'result') === has(response, 'error')) {
    problems.push('exactly one of result and error is required');
  }
  if (has(response, 'error')) {
    const error = response.error;
    if (!isPlainObject(error)) problems.push('error must be an object');
    else {
      if (!Number.isInteger(error.code)) problems.push('error.code must be an integer');
      if (typeof error.message !== 'string') problems.push('error.message must be a string');
      const extraError = Object.keys(error).filter(
        (key) => !['code', 'message', 'data'].includes(key),
      );
      if (extraError.length > 0) problems.push(`unexpected error members ${extraError.join(', ')}`);
    }
  }
  return problems;
}

export function outcomeOf(response: Json): Outcome {
  return has(response, 'result') ? 'ok' : ((response.error as Json).code as number);
}

/** Why `response` does not satisfy `answer` (undefined when it does). */
export function mismatch(response: unknown, answer: Answer): string | undefined {
  const problems = envelopeProblems(response);
  if (problems.length > 0) return `invalid envelope: ${problems.join('; ')}`;
  const r = response as Json;
  if (r.id !== answer.id) {
    return `id ${show(r.id)} where ${show(answer.id)} was expected`;
  }
  const outcome = outcomeOf(r);
  if (!answer.outcomes.includes(outcome)) {
    return `outcome ${String(outcome)} where one of ${answer.outcomes.join(', ')} was expected`;
  }
  return outcome === 'ok' ? undefined : limitMismatch(r.error as Json, answer);
}

function limitMismatch(error: Json, answer: Answer): string | undefined {
  if (answer.limits === undefined) return undefined;
  const data = error.data;
  const named = isPlainObject(data) ? data.limit : undefined;
  if (named === undefined) {
    return answer.mustNameLimit
      ? `the error names no limit where one of ${answer.limits.join(', ')} was expected`
      : undefined;
  }
  if (typeof named !== 'string' || !answer.limits.includes(named)) {
    return `the error names ${show(named)} where ${answer.limits.length > 0 ? `one of ${answer.limits.join(', ')}` : 'no limit'} was expected`;
  }
  return undefined;
}

/**
 * Matches a batch answer against the expected answers, in any order (JSON-RPC
 * allows any). Returns the problems found (none when each element answered
 * exactly one expected answer).
 */
export function batchMismatch(responses: unknown, answers: Answer[]): string[] {
  if (!Array.isArray(responses)) return ['a batch must be answered with an array'];
  if (responses.length !== answers.length) {
    return [`${responses.length} answers for ${answers.length} answerable elements`];
  }
  const remaining = [...answers];
  const problems: string[] = [];
  for (const response of responses) {
    const envelope = envelopeProblems(response);
    if (envelope.length > 0) {
      problems.push(`invalid element ${preview(response)}: ${envelope.join('; ')}`);
      continue;
    }
    const index = remaining.findIndex((answer) => mismatch(response, answer) === undefined);
    if (index === -1) {
      problems.push(`no expected answer matches ${preview(response)}`);
      continue;
    }
    remaining.splice(index, 1);
  }
  return problems;
}

export function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export function preview(value: unknown, max = 300): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}... (${text.length} chars)` : text;
}
