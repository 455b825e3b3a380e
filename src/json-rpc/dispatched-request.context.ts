import { RequestAbort } from '../common/request-abort';
import { newTraceId } from '../observability/tracing/traceparent';
import { VerifiedToken } from '../governance/identity/oauth/verified-token';
import { isAtOrAbove, LoggingLevel } from '../session/logging-level';
import { McpSession } from '../session/mcp-session';
import { MessageSink } from '../session/message-sink';
import { JsonRpcId, JsonRpcNotification, JsonRpcParams, JsonRpcRequest } from './json-rpc.types';
import { CallRecord, McpRequestContext } from './mcp-request-context';
import { isModernVersion } from './protocol-version';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { InputRound } from './mrtr/input-round';

const DEFAULT_LOG_THRESHOLD: LoggingLevel = 'info';
const SERVER_REQUEST_TIMEOUT_MS = 60_000;

/**
 * The McpRequestContext the dispatcher makes for each inbound request or
 * notification. A class, so that its operations are shared methods rather
 * than four closures made per call.
 */
export class DispatchedRequestContext implements McpRequestContext {
  readonly method: string;
  readonly requestId?: JsonRpcId;
  readonly clientId: string;
  readonly transport: McpSession['transport'];
  readonly meta: Record<string, unknown>;
  readonly call: CallRecord = {};
  inputs?: InputRound;
  becomeTask?: () => Promise<never>;

  constructor(
    message: JsonRpcRequest | JsonRpcNotification,
    readonly session: McpSession,
    readonly abort: RequestAbort,
    readonly responseHeaders: Record<string, string> | undefined,
    /** The stream tied to the request (stdout, a POST's SSE body); undefined: the session's own. */
    private readonly sink: MessageSink | undefined,
    readonly token?: VerifiedToken,
    /** The W3C trace id of the request's span (the dispatcher's); a fresh one otherwise. */
    readonly traceId: string = newTraceId(),
  ) {
    this.method = message.method;
    this.requestId = 'id' in message ? message.id : undefined;
    this.clientId = session.clientId;
    this.transport = session.transport;
    this.meta = readMeta(message.params);
  }

  get stream(): MessageSink | undefined {
    return this.sink;
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  notify(method: string, params?: JsonRpcParams): boolean {
    return this.session.notify(method, params, this.sink);
  }

  request(
    method: string,
    params?: JsonRpcParams,
    timeoutMs = SERVER_REQUEST_TIMEOUT_MS,
    inputKey?: string,
  ): Promise<unknown> {
    if (isModernVersion(this.session.protocolVersion)) {
      // 2026-07-28 forbids server-to-client requests: input comes back on a retry (MRTR).
      if (this.inputs) return this.inputs.ask(method, params ?? {}, inputKey);
      return Promise.reject(
        new GatewayError(
          ErrorCode.ExecutionError,
          `${method} cannot be sent to a client on protocol version ${this.session.protocolVersion}: only tools/call, prompts/get and resources/read take input (through input-required results), not ${this.method}`,
        ),
      );
    }
    return this.session.request(method, params, {
      via: this.sink,
      signal: this.abort.signal,
      timeoutMs,
    });
  }

  log(level: LoggingLevel, data: unknown, logger?: string): boolean {
    // 2026-07-28: a request without a log level in its _meta gets no log messages at all.
    const threshold =
      this.session.logLevel ??
      (isModernVersion(this.session.protocolVersion) ? undefined : DEFAULT_LOG_THRESHOLD);
    if (threshold === undefined || !isAtOrAbove(level, threshold)) return false;
    const params: JsonRpcParams = logger === undefined ? { level, data } : { level, logger, data };
    return this.session.notify('notifications/message', params, this.sink);
  }

  closeStream(): boolean {
    return this.sink?.closeConnection?.() ?? false;
  }
}

function readMeta(params: JsonRpcParams | undefined): Record<string, unknown> {
  const meta = params?._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : {};
}
