import type { TraceParent } from './traceparent';

export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** How a request span ends. */
export interface SpanEnding {
  errorCode?: number;
  message?: string;
  outcome?: string;
}

/** The span of one MCP request, or its stand-in when no trace is exported. */
export interface RequestSpan {
  /** W3C trace id: the incoming parent's when there was one. */
  readonly traceId: string;
  /** This request's span id (16 hex digits). */
  readonly spanId: string;
  readonly sampled: boolean;
  /** What the request scope carries for the tracer's steps (RequestScope.traceContext). */
  readonly traceContext?: unknown;
  setAttributes(attributes: SpanAttributes): void;
  /**
   * Ends the span; `errorCode` set means the request failed with that
   * JSON-RPC code. `outcome` names how it ended when the code alone does not
   * say (a tool's own error, a cancellation).
   */
  end(ending: SpanEnding): void;
}

/**
 * Where requests get their trace identity and, when tracing is on, their
 * spans. The default never exports; the OpenTelemetry one replaces it when
 * tracing is configured. Callbacks rather than start/stop pairs, so the
 * span is the active context for everything the request awaits.
 */
export abstract class RequestTracer {
  /** Runs one MCP request under its own span, child of `parent` when the request brought one. */
  abstract traceRequest<T>(
    name: string,
    parent: TraceParent | undefined,
    attributes: SpanAttributes,
    run: (span: RequestSpan) => Promise<T>,
  ): Promise<T>;

  /**
   * Runs one step of the current request (governance, handler, ledger write,
   * upstream call) as a child span, which ends when the step answers: at once
   * for a step that answers at once, when its promise settles otherwise.
   */
  abstract inSpan<R>(name: string, attributes: SpanAttributes, run: () => R): R;

  /** The traceparent an outgoing call of the current request carries (upstream HTTP header and `_meta`). */
  abstract outgoingTraceparent(): string | undefined;
}
