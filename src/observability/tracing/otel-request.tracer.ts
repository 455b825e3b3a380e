import { OnApplicationShutdown } from '@nestjs/common';
import {
  Context,
  isSpanContextValid,
  ROOT_CONTEXT,
  SpanKind,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import type { TracingConfig } from '../../config/gateway-config';
import { isThenable } from '../../common/is-thenable';
import { RequestScope, requestScope } from '../request-scope';
import { isSampled, OtelRequestSpan, spanAttributes, spanFailed } from './otel-request.span';
import { startTraceExport, TraceExport } from './otel-trace.export';
import { RequestSpan, RequestTracer, SpanAttributes } from './request-tracer';
import {
  ATTR_MCP_METHOD,
  ATTR_MCP_UPSTREAM,
  ATTR_RPC_METHOD,
  ATTR_RPC_SYSTEM,
} from './span-attributes';
import { formatTraceparent, TraceParent } from './traceparent';

/**
 * Tracing on: every MCP request is a SERVER span (the caller's span its
 * parent when it sent a traceparent), its steps INTERNAL children and its
 * upstream calls CLIENT children, exported over OTLP/HTTP. The active span
 * rides in the request scope (RequestScope.traceContext), the one
 * AsyncLocalStorage of the gateway, so everything a request awaits runs under it.
 */
export class OtelRequestTracer extends RequestTracer implements OnApplicationShutdown {
  private readonly exported: TraceExport;

  constructor(config: TracingConfig) {
    super();
    this.exported = startTraceExport(config);
  }

  traceRequest<T>(
    name: string,
    parent: TraceParent | undefined,
    attributes: SpanAttributes,
    run: (span: RequestSpan) => Promise<T>,
  ): Promise<T> {
    const parentContext = parent ? remoteParent(parent) : ROOT_CONTEXT;
    const span = this.exported.tracer.startSpan(
      name,
      {
        kind: SpanKind.SERVER,
        attributes: spanAttributes({
          [ATTR_RPC_SYSTEM]: 'jsonrpc',
          [ATTR_RPC_METHOD]: name,
          [ATTR_MCP_METHOD]: name,
          ...attributes,
        }),
      },
      parentContext,
    );
    const request = new OtelRequestSpan(span, trace.setSpan(parentContext, span));
    // A request whose caller never ended its span still ends it, as a failure.
    return settled(() => run(request)).catch((error: unknown) => {
      request.endFailed(error);
      throw error;
    });
  }

  inSpan<R>(name: string, attributes: SpanAttributes, run: () => R): R {
    const scope = requestScope.current();
    const active = activeContext(scope);
    // Outside a recorded request (a task run, an unsampled trace) there is nothing to add to.
    if (!scope || !active || !trace.getSpan(active)?.isRecording()) return run();
    const kind = attributes[ATTR_MCP_UPSTREAM] === undefined ? SpanKind.INTERNAL : SpanKind.CLIENT;
    const span = this.exported.tracer.startSpan(
      name,
      { kind, attributes: spanAttributes(attributes) },
      active,
    );
    const step = { ...scope, traceContext: trace.setSpan(active, span) };
    const failed = (error: unknown) => {
      spanFailed(span, error);
      span.end();
      throw error;
    };
    let answer: R;
    try {
      answer = requestScope.run(step, run);
    } catch (error) {
      return failed(error);
    }
    if (!isThenable(answer)) {
      span.end();
      return answer;
    }
    return Promise.resolve(answer).then((value) => {
      span.end();
      return value;
    }, failed) as R;
  }

  outgoingTraceparent(): string | undefined {
    const active = activeContext(requestScope.current());
    const context = active && trace.getSpan(active)?.spanContext();
    if (!context || !isSpanContextValid(context)) return undefined;
    return formatTraceparent(context.traceId, context.spanId, isSampled(context.traceFlags));
  }

  /** Sends the spans still queued (bounded by `export_timeout_ms`), then stops. */
  async onApplicationShutdown(): Promise<void> {
    await this.exported.shutdown();
  }
}

/** The OpenTelemetry context of the step running, set by this tracer in the request scope. */
function activeContext(scope: RequestScope | undefined): Context | undefined {
  return scope?.traceContext as Context | undefined;
}

/** A callback that throws is a rejected promise, as for any async step. */
function settled<T>(run: () => Promise<T>): Promise<T> {
  try {
    return run();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** The caller's span, known only by its ids, as the parent of this request's span. */
function remoteParent(parent: TraceParent): Context {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: parent.traceId,
    spanId: parent.parentSpanId,
    traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  });
}
