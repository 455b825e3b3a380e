import { Injectable } from '@nestjs/common';
import { requestScope } from '../request-scope';
import { RequestSpan, RequestTracer, SpanAttributes } from './request-tracer';
import { formatTraceparent, newSpanId, newTraceId, TraceParent } from './traceparent';

/**
 * Tracing off: no spans are recorded, but every request still gets a W3C
 * trace id (the caller's when it sent a traceparent) and passes it on, so
 * logs, ledger rows and upstream calls correlate with the caller's trace.
 */
@Injectable()
export class UntracedRequestTracer extends RequestTracer {
  traceRequest<T>(
    _name: string,
    parent: TraceParent | undefined,
    _attributes: SpanAttributes,
    run: (span: RequestSpan) => Promise<T>,
  ): Promise<T> {
    return run({
      traceId: parent?.traceId ?? newTraceId(),
      spanId: newSpanId(),
      sampled: parent?.sampled ?? false,
      setAttributes: () => undefined,
      end: () => undefined,
    });
  }

  inSpan<R>(_name: string, _attributes: SpanAttributes, run: () => R): R {
    return run();
  }

  outgoingTraceparent(): string | undefined {
    const scope = requestScope.current();
    return scope && formatTraceparent(scope.traceId, scope.spanId, scope.sampled);
  }
}
