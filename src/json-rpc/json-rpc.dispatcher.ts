import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { RequestCancelledError } from '../errors/request-cancelled.error';
import { RequestAbort } from '../common/request-abort';
import { clipText, LOGGED_ID_MAX_CHARS } from '../logging/clipped-text';
import { RequestLog } from '../logging/request-log';
import { McpMetrics, UNRESOLVED_METHOD } from '../observability/mcp.metrics';
import { outcomeOfCode } from '../observability/outcome';
import { requestScope } from '../observability/request-scope';
import { incomingParent } from '../observability/tracing/incoming-parent';
import { requestSpanAttributes } from '../observability/tracing/request-span.attributes';
import { RequestSpan, RequestTracer } from '../observability/tracing/request-tracer';
import { McpSession } from '../session/mcp-session';
import { MessageSink } from '../session/message-sink';
import { ArgumentLimitsService } from './argument-limits.service';
import { ResourceUriLimitsService } from './resource-uri-limits.service';
import { BatchLimitsService } from './batch-limits.service';
import { JsonRpcErrorMapper } from './json-rpc-error.mapper';
import { RpcErrorReply } from './json-rpc-exception.filter';
import { FrameParser } from './frame-parser.service';
import { prepareResponse } from './json-rpc.serializer';
import { failure, invalidRequest, success } from './json-rpc.responses';
import {
  InboundEntry,
  InboundFrame,
  JsonRpcFailure,
  JsonRpcNotification,
  JsonRpcParams,
  JsonRpcRequest,
  JsonRpcResponse,
} from './json-rpc.types';
import { AuditTrail } from './audit-trail';
import { VerifiedToken } from '../governance/identity/oauth/verified-token';
import { DispatchedRequestContext } from './dispatched-request.context';
import { McpMethodEntry, McpMethodRegistry } from './mcp-method.registry';
import { McpRequestContext } from './mcp-request-context';
import { ModernResultShaper } from './modern-result.shaper';
import { InputRounds } from './mrtr/input-rounds.service';
import { allowsBatching, isModernVersion, REMOVED_IN_2026 } from './protocol-version';
import {
  callerTraceId,
  endOfFailure,
  endOfRequest,
  FAILED,
  NO_ATTRIBUTES,
  scopeOf,
  SUCCEEDED,
  withTraceId,
} from './request-trace';

/** Where a frame came from and where request-related messages should go. */
export interface InboundContext {
  session: McpSession;
  /** The stream tied to this frame (stdout, a POST's SSE body); falls back to the session's stream. */
  sink?: MessageSink;
  /** Headers for the HTTP response carrying this frame's answer; handlers and guards may add to it. */
  responseHeaders?: Record<string, string>;
  /** The OAuth caller's validated token (identity, scopes) when the frame came with one. */
  token?: VerifiedToken;
  /** The HTTP `traceparent` header; a message's own `params._meta.traceparent` wins over it. */
  traceparent?: string;
  /** Set for a batch: the trace id each answer was made under, for one its limits withhold later. */
  answerTraces?: Map<JsonRpcResponse, string>;
}

export type DispatchResult = JsonRpcResponse | JsonRpcResponse[] | undefined;

/**
 * Turns inbound frames into responses: validation, batching rules, the
 * initialization gate, cancellation bookkeeping, and the call into the
 * registered MCP method through Nest's pipeline.
 */
@Injectable()
export class JsonRpcDispatcher {
  private readonly logger = new Logger(JsonRpcDispatcher.name);

  constructor(
    private readonly registry: McpMethodRegistry,
    private readonly errors: JsonRpcErrorMapper,
    private readonly metrics: McpMetrics,
    private readonly auditTrail: AuditTrail,
    private readonly argumentLimits: ArgumentLimitsService,
    private readonly resourceUriLimits: ResourceUriLimitsService,
    private readonly batchLimits: BatchLimitsService,
    private readonly modern: ModernResultShaper,
    private readonly inputRounds: InputRounds,
    private readonly tracer: RequestTracer,
    private readonly requestLog: RequestLog,
    private readonly frames: FrameParser,
  ) {}

  dispatchFrame(raw: string | Buffer, inbound: InboundContext): Promise<DispatchResult> {
    return this.dispatchParsed(this.frames.parse(raw), inbound);
  }

  /**
   * For transports that inspect the frame first (HTTP decides sessions from
   * it). This and dispatchEntry pass their callee's promise on instead of
   * being async functions: an async function returning a promise adds a
   * promise of its own and three microtask turns, per level and call.
   */
  dispatchParsed(frame: InboundFrame, inbound: InboundContext): Promise<DispatchResult> {
    inbound.session.touch();
    switch (frame.kind) {
      case 'unparseable':
        return Promise.resolve(this.refuse(frame.response, inbound.traceparent, inbound.session));
      case 'single':
        return this.dispatchEntry(frame.entry, inbound);
      case 'batch':
        return this.dispatchBatch(frame.entries, inbound);
    }
  }

  /**
   * Every element is answered on its own; notifications and responses add
   * nothing. The batch limits bound how many elements run and how large the answer grows.
   */
  private async dispatchBatch(
    entries: InboundEntry[],
    inbound: InboundContext,
  ): Promise<DispatchResult> {
    const version = inbound.session.protocolVersion;
    if (!allowsBatching(version)) {
      return this.refuse(
        invalidRequest(null, `JSON-RPC batches are not supported in protocol version ${version}`),
        inbound.traceparent,
        inbound.session,
      );
    }
    const batch = { ...inbound, answerTraces: new Map<JsonRpcResponse, string>() };
    const results = await Promise.all(
      entries.map((entry) =>
        entry.kind === 'request' && entry.message.method === 'initialize'
          ? Promise.resolve(
              this.refuse(
                invalidRequest(entry.message.id, 'initialize must not be part of a batch'),
                inbound.traceparent,
                inbound.session,
              ),
            )
          : this.dispatchEntry(entry, batch),
      ),
    );
    const responses = results.filter((r): r is JsonRpcResponse => r !== undefined);
    if (responses.length === 0) return undefined;
    return this.batchLimits.capAnswers(responses, batch.answerTraces, inbound.session);
  }

  dispatchEntry(
    entry: InboundEntry,
    inbound: InboundContext,
  ): Promise<JsonRpcResponse | undefined> {
    switch (entry.kind) {
      case 'invalid':
        return Promise.resolve(this.refuse(entry.response, inbound.traceparent, inbound.session));
      case 'response':
        if (!inbound.session.resolveResponse(entry.message)) {
          this.logger.debug({ msg: 'response to no pending request', id: entry.message.id });
        }
        return Promise.resolve(undefined);
      case 'notification':
        return this.dispatchNotification(entry.message, inbound).then(() => undefined);
      case 'request':
        return this.dispatchRequest(entry.message, inbound);
    }
  }

  /**
   * Every request runs under its span (a child of the trace its caller
   * named) and its request scope, so that each log line written while it is
   * served, and its ledger row and error answer, carry its trace id.
   */
  private dispatchRequest(
    request: JsonRpcRequest,
    inbound: InboundContext,
  ): Promise<JsonRpcResponse | undefined> {
    const { session } = inbound;
    const found = this.registry.get(request.method);
    const entry =
      found && !(isModernVersion(session.protocolVersion) && REMOVED_IN_2026.has(request.method))
        ? found
        : undefined;
    const work = this.tracer.traceRequest(
      entry ? request.method : UNRESOLVED_METHOD,
      incomingParent(request.params, inbound.traceparent),
      NO_ATTRIBUTES,
      (span) =>
        requestScope.run(scopeOf(request, session, span), () =>
          this.serve(entry, request, inbound, span),
        ),
    );
    if (request.method === 'initialize') session.handshake = work.then(() => undefined);
    return work;
  }

  /** One request, inside its span and scope: its answer, ledger row, log line and span attributes. */
  private async serve(
    entry: McpMethodEntry | undefined,
    request: JsonRpcRequest,
    inbound: InboundContext,
    span: RequestSpan,
  ): Promise<JsonRpcResponse | undefined> {
    const started = performance.now();
    const { session } = inbound;
    let context: DispatchedRequestContext | undefined;
    let response: JsonRpcResponse | undefined;
    if (!entry) {
      this.metrics.recordRejected(ErrorCode.MethodNotFound);
      response = this.fail(request, GatewayError.methodNotFound(request.method));
    } else if (
      !session.initialized &&
      !entry.options.beforeInitialize &&
      !(await this.afterHandshake(session))
    ) {
      this.metrics.recordRejected(ErrorCode.InvalidRequest);
      response = this.fail(request, notInitialized(request.method));
    } else {
      const startedAt = Date.now();
      const abort = session.beginRequest(request.id);
      context = this.createContext(request, inbound, abort, span.traceId);
      response = await this.run(entry, request, context);
      // A call that became a task is recorded when the task ends (TaskRunner).
      if (entry.options.audited && context.call.taskId === undefined) {
        response = await this.audit(request, context, response, startedAt);
      }
    }
    const durationMs = performance.now() - started;
    this.requestLog.ended({
      request,
      session,
      context,
      response,
      traceId: span.traceId,
      durationMs,
      loggableParams: context?.call.argumentsOverLimit ? undefined : entry?.options.limitedParams,
    });
    if (span.sampled) span.setAttributes(requestSpanAttributes(request, session, context));
    span.end(endOfRequest(response, context));
    if (response !== undefined) inbound.answerTraces?.set(response, span.traceId);
    return response;
  }

  /** A request pipelined right behind initialize (stdio clients do this) waits for the handshake. */
  private async afterHandshake(session: McpSession): Promise<boolean> {
    await session.handshake;
    return session.initialized;
  }

  /** Serialized now, so that the ledger records what the client gets (and its size). */
  private async audit(
    request: JsonRpcRequest,
    context: McpRequestContext,
    answer: JsonRpcResponse | undefined,
    startedAt: number,
  ): Promise<JsonRpcResponse | undefined> {
    const prepared = answer === undefined ? undefined : prepareResponse(answer);
    const response = prepared?.response;
    try {
      // Recorded before the response leaves: a client never holds an answer the ledger lacks.
      const recording = this.auditTrail.notify({
        context,
        params: request.params ?? {},
        startedAt,
        durationMs: Date.now() - startedAt,
        response,
        responseBytes: prepared?.bytes ?? 0,
        responseText: prepared?.text,
        cancelled: response === undefined,
      });
      if (recording) await recording;
      return response;
    } catch (err) {
      return response === undefined ? undefined : this.fail(request, err);
    }
  }

  /**
   * Runs the method through Nest's pipeline (guards included) and records
   * its outcome and time. A request the client cancelled gets no answer
   * (the spec) and is not an outcome of the method.
   */
  private async run(
    entry: McpMethodEntry,
    request: JsonRpcRequest,
    context: McpRequestContext,
  ): Promise<JsonRpcResponse | undefined> {
    const started = performance.now();
    let response: JsonRpcResponse | undefined;
    try {
      const params = request.params ?? {};
      const { limitedParams, resourceUris } = entry.options;
      if (limitedParams) this.argumentLimits.enforce(params, limitedParams, context);
      if (resourceUris) this.resourceUriLimits.enforce(params, resourceUris, context);
      const round = this.inputRounds.open(request, context);
      context.inputs = round;
      // An abort answers at once even if the handler ignores its signal.
      const result = await context.abort.race(entry.invoke(params, context));
      // A question left unanswered wins over whatever the handler made of its rejection.
      if (round?.pending) {
        response = success(request.id, this.inputRounds.interim(round, request, context));
      } else {
        response =
          result instanceof RpcErrorReply
            ? withTraceId(
                failure(request.id, result.error.code, result.error.message, result.error.data),
                context.traceId,
              )
            : success(request.id, result ?? {});
      }
    } catch (err) {
      // Aborts, and failures of the filter chain itself, are mapped by the same mapper.
      response = err instanceof RequestCancelledError ? undefined : this.fail(request, err);
    } finally {
      context.session.endRequest(request.id);
    }
    if (response !== undefined && isModernVersion(context.session.protocolVersion)) {
      response = this.modern.shape(request.method, response);
    }
    if (response !== undefined) {
      // Serialized in the request's scope: an answer JSON cannot carry becomes an error with its trace id.
      response = prepareResponse(response).response;
      this.metrics.recordRequest(
        request.method,
        'error' in response ? outcomeOfCode(response.error.code) : 'success',
        (performance.now() - started) / 1000,
      );
    }
    return response;
  }

  /**
   * A notification runs under a span and scope of its own like a request
   * (its log lines correlate), but gets no request line: nothing answers it.
   */
  private dispatchNotification(
    notification: JsonRpcNotification,
    inbound: InboundContext,
  ): Promise<void> {
    const entry = this.registry.get(notification.method);
    if (!entry) {
      this.logger.debug({
        msg: 'notification ignored',
        method: clipText(notification.method, LOGGED_ID_MAX_CHARS),
      });
      return Promise.resolve();
    }
    return this.tracer.traceRequest(
      notification.method,
      incomingParent(notification.params, inbound.traceparent),
      NO_ATTRIBUTES,
      (span) =>
        requestScope.run(scopeOf(notification, inbound.session, span), () =>
          this.notify(entry, notification, inbound, span),
        ),
    );
  }

  private async notify(
    entry: McpMethodEntry,
    notification: JsonRpcNotification,
    inbound: InboundContext,
    span: RequestSpan,
  ): Promise<void> {
    const context = this.createContext(notification, inbound, new RequestAbort(), span.traceId);
    const result = await entry
      .invoke(notification.params ?? {}, context)
      .catch((err: unknown) => err);
    if (result instanceof RpcErrorReply || result instanceof Error) {
      this.logger.warn({
        msg: 'notification failed',
        method: notification.method,
        error: describe(result),
      });
      span.end(result instanceof RpcErrorReply ? endOfFailure(result.error) : FAILED);
    } else {
      span.end(SUCCEEDED);
    }
  }

  /**
   * An answer made before any method ran (unparseable, invalid, a refused
   * batch; transports refuse some frames themselves): logged and counted
   * like a request (method `(rejected)` in mcp_requests_total), with a trace
   * id (the caller's when its header named one) that its error data carries too.
   */
  refuse(
    response: JsonRpcFailure,
    traceparent: string | undefined,
    session?: McpSession,
    params?: JsonRpcParams,
  ): JsonRpcFailure {
    const traceId = callerTraceId(params, traceparent);
    const refused = withTraceId(response, traceId);
    this.metrics.recordRejected(refused.error.code);
    this.requestLog.refused({ response: refused, session, traceId });
    return refused;
  }

  private fail(request: JsonRpcRequest, err: unknown): JsonRpcResponse {
    const error = this.errors.toErrorObject(err, { method: request.method });
    return failure(request.id, error.code, error.message, error.data);
  }

  private createContext(
    message: JsonRpcRequest | JsonRpcNotification,
    inbound: InboundContext,
    abort: RequestAbort,
    traceId: string,
  ): DispatchedRequestContext {
    const { session, sink, responseHeaders, token } = inbound;
    return new DispatchedRequestContext(
      message,
      session,
      abort,
      responseHeaders,
      sink,
      token,
      traceId,
    );
  }
}

/** A request pipelined behind an initialize that failed. */
function notInitialized(method: string): GatewayError {
  return GatewayError.invalidRequest(
    `Invalid Request: session is not initialized: send initialize before ${method}`,
  );
}

function describe(value: unknown): unknown {
  return value instanceof RpcErrorReply
    ? value.error
    : value instanceof Error
      ? value.message
      : value;
}
