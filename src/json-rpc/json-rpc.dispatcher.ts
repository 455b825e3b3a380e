import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { RequestCancelledError } from '../errors/request-cancelled.error';
import { RequestAbort } from '../common/request-abort';
import { McpMetrics } from '../observability/mcp.metrics';
import { outcomeOfCode } from '../observability/outcome';
import { McpSession } from '../session/mcp-session';
import { MessageSink } from '../session/message-sink';
import { ArgumentLimitsService } from './argument-limits.service';
import { BatchLimitsService } from './batch-limits.service';
import { JsonRpcErrorMapper } from './json-rpc-error.mapper';
import { RpcErrorReply } from './json-rpc-exception.filter';
import { parseFrame } from './json-rpc.parser';
import { prepareResponse } from './json-rpc.serializer';
import { failure, invalidRequest, success } from './json-rpc.responses';
import {
  InboundEntry,
  InboundFrame,
  JsonRpcNotification,
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
import { allowsBatching, isModernVersion } from './protocol-version';

/** Methods of the handshake revisions that 2026-07-28 removed: unknown to a stateless request. */
const REMOVED_IN_2026 = new Set([
  'initialize',
  'notifications/initialized',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/** Where a frame came from and where request-related messages should go. */
export interface InboundContext {
  session: McpSession;
  /** The stream tied to this frame (stdout, a POST's SSE body); falls back to the session's stream. */
  sink?: MessageSink;
  /** Headers for the HTTP response carrying this frame's answer; handlers and guards may add to it. */
  responseHeaders?: Record<string, string>;
  /** The OAuth caller's validated token (identity, scopes) when the frame came with one. */
  token?: VerifiedToken;
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
    private readonly batchLimits: BatchLimitsService,
    private readonly modern: ModernResultShaper,
    private readonly inputRounds: InputRounds,
  ) {}

  dispatchFrame(raw: string | Buffer, inbound: InboundContext): Promise<DispatchResult> {
    return this.dispatchParsed(parseFrame(raw), inbound);
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
        this.metrics.recordRejected(frame.response.error.code);
        return Promise.resolve(frame.response);
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
      return invalidRequest(
        null,
        `JSON-RPC batches are not supported in protocol version ${version}`,
      );
    }
    const tooLong = this.batchLimits.refuseLength(entries);
    if (tooLong) return tooLong;
    const results = await Promise.all(
      entries.map((entry) =>
        entry.kind === 'request' && entry.message.method === 'initialize'
          ? Promise.resolve(
              invalidRequest(entry.message.id, 'initialize must not be part of a batch'),
            )
          : this.dispatchEntry(entry, inbound),
      ),
    );
    const responses = results.filter((r): r is JsonRpcResponse => r !== undefined);
    return responses.length > 0 ? this.batchLimits.capAnswers(responses) : undefined;
  }

  dispatchEntry(
    entry: InboundEntry,
    inbound: InboundContext,
  ): Promise<JsonRpcResponse | undefined> {
    switch (entry.kind) {
      case 'invalid':
        this.metrics.recordRejected(entry.response.error.code);
        return Promise.resolve(entry.response);
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

  private dispatchRequest(
    request: JsonRpcRequest,
    inbound: InboundContext,
  ): Promise<JsonRpcResponse | undefined> {
    const { session } = inbound;
    const entry = this.registry.get(request.method);
    if (
      !entry ||
      (isModernVersion(session.protocolVersion) && REMOVED_IN_2026.has(request.method))
    ) {
      this.metrics.recordRejected(ErrorCode.MethodNotFound);
      return Promise.resolve(this.fail(request, GatewayError.methodNotFound(request.method)));
    }
    if (!session.initialized && !entry.options.beforeInitialize) {
      return this.afterHandshake(entry, request, inbound);
    }
    const work = this.invoke(entry, request, inbound);
    if (request.method === 'initialize') session.handshake = work.then(() => undefined);
    return work;
  }

  /** A request pipelined right behind initialize (stdio clients do this) waits for the handshake. */
  private async afterHandshake(
    entry: McpMethodEntry,
    request: JsonRpcRequest,
    inbound: InboundContext,
  ): Promise<JsonRpcResponse | undefined> {
    await inbound.session.handshake;
    if (!inbound.session.initialized) {
      this.metrics.recordRejected(ErrorCode.InvalidRequest);
      return invalidRequest(
        request.id,
        `session is not initialized: send initialize before ${request.method}`,
      );
    }
    return this.invoke(entry, request, inbound);
  }

  private async invoke(
    entry: McpMethodEntry,
    request: JsonRpcRequest,
    inbound: InboundContext,
  ): Promise<JsonRpcResponse | undefined> {
    const startedAt = Date.now();
    const abort = inbound.session.beginRequest(request.id);
    const context = this.createContext(request, inbound, abort);
    const answer = await this.run(entry, request, context);
    // A call that became a task is recorded when the task ends (TaskRunner).
    if (!entry.options.audited || context.call.taskId !== undefined) return answer;
    // Serialized now, so the ledger records what the client gets (and its size).
    const prepared = answer === undefined ? undefined : prepareResponse(answer);
    const response = prepared?.response;
    try {
      // Recorded before the response leaves: a client never holds an answer the ledger lacks.
      await this.auditTrail.notify({
        context,
        params: request.params ?? {},
        startedAt,
        durationMs: Date.now() - startedAt,
        response,
        responseBytes: prepared?.bytes ?? 0,
        responseText: prepared?.text,
        cancelled: response === undefined,
      });
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
      const { limitedParams } = entry.options;
      if (limitedParams) this.argumentLimits.enforce(params, limitedParams, context);
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
            ? failure(request.id, result.error.code, result.error.message, result.error.data)
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
      this.metrics.recordRequest(
        request.method,
        'error' in response ? outcomeOfCode(response.error.code) : 'success',
        (performance.now() - started) / 1000,
      );
    }
    return response;
  }

  private async dispatchNotification(
    notification: JsonRpcNotification,
    inbound: InboundContext,
  ): Promise<void> {
    const entry = this.registry.get(notification.method);
    if (!entry) {
      this.logger.debug({ msg: 'notification ignored', method: notification.method });
      return;
    }
    const context = this.createContext(notification, inbound, new RequestAbort());
    const result = await entry
      .invoke(notification.params ?? {}, context)
      .catch((err: unknown) => err);
    if (result instanceof RpcErrorReply || result instanceof Error) {
      this.logger.warn({
        msg: 'notification failed',
        method: notification.method,
        error: describe(result),
      });
    }
  }

  private fail(request: JsonRpcRequest, err: unknown): JsonRpcResponse {
    const error = this.errors.toErrorObject(err, { method: request.method });
    return failure(request.id, error.code, error.message, error.data);
  }

  private createContext(
    message: JsonRpcRequest | JsonRpcNotification,
    inbound: InboundContext,
    abort: RequestAbort,
  ): McpRequestContext {
    const { session, sink, responseHeaders, token } = inbound;
    return new DispatchedRequestContext(message, session, abort, responseHeaders, sink, token);
  }
}

function describe(value: unknown): unknown {
  return value instanceof RpcErrorReply
    ? value.error
    : value instanceof Error
      ? value.message
      : value;
}
