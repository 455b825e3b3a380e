import { Attributes, Context, Span, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import { GatewayError } from '../../errors/gateway.error';
import { ErrorCode } from '../../errors/error-code';
import { outcomeOfCode } from '../outcome';
import { requestScope } from '../request-scope';
import { MAX_ATTRIBUTE_CHARS } from './otel-trace.export';
import { RequestSpan, SpanAttributes, SpanEnding } from './request-tracer';
import {
  ATTR_MCP_CLIENT_ID,
  ATTR_MCP_OUTCOME,
  ATTR_MCP_SESSION_ID,
  ATTR_RPC_JSONRPC_ERROR_CODE,
  ATTR_RPC_JSONRPC_ERROR_MESSAGE,
  ATTR_RPC_JSONRPC_REQUEST_ID,
} from './span-attributes';

/**
 * One MCP request's SERVER span as the dispatcher sees it. Ending it records
 * the outcome, the JSON-RPC error code and the request's identity (client,
 * session, id) from the request scope, whoever set up that scope.
 */
export class OtelRequestSpan implements RequestSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;
  private ended = false;

  constructor(
    private readonly span: Span,
    /** The OpenTelemetry context with this span active: its steps' parent. */
    readonly traceContext: Context,
  ) {
    const context = span.spanContext();
    this.traceId = context.traceId;
    this.spanId = context.spanId;
    this.sampled = isSampled(context.traceFlags);
  }

  setAttributes(attributes: SpanAttributes): void {
    this.span.setAttributes(spanAttributes(attributes));
  }

  end(ending: SpanEnding): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.span.isRecording()) return;
    const scope = requestScope.current();
    if (scope) {
      this.span.setAttributes(
        spanAttributes({
          [ATTR_MCP_CLIENT_ID]: scope.clientId,
          [ATTR_MCP_SESSION_ID]: scope.sessionId,
          [ATTR_RPC_JSONRPC_REQUEST_ID]: scope.requestId,
        }),
      );
    }
    const { errorCode, message } = ending;
    if (errorCode === undefined) {
      this.span.setAttribute(ATTR_MCP_OUTCOME, ending.outcome ?? 'success');
    } else {
      this.span.setAttributes({
        [ATTR_MCP_OUTCOME]: ending.outcome ?? outcomeOfCode(errorCode),
        [ATTR_RPC_JSONRPC_ERROR_CODE]: errorCode,
        ...(message === undefined ? {} : { [ATTR_RPC_JSONRPC_ERROR_MESSAGE]: message }),
      });
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: clipped(message) });
    }
    this.span.end();
  }

  /** The request's own callback failed before it ended its span. */
  endFailed(error: unknown): void {
    const code = error instanceof GatewayError ? error.code : ErrorCode.InternalError;
    this.end({ errorCode: code, message: error instanceof Error ? error.message : String(error) });
  }
}

/** Attributes as OpenTelemetry takes them: unset ones left out. */
export function spanAttributes(attributes: SpanAttributes): Attributes {
  const defined: Attributes = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) defined[key] = value;
  }
  return defined;
}

/** A step that threw: error status, with the JSON-RPC code when the error carries one. */
export function spanFailed(span: Span, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof GatewayError) span.setAttribute(ATTR_RPC_JSONRPC_ERROR_CODE, error.code);
  span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: clipped(message) });
}

export function isSampled(flags: number): boolean {
  return (flags & TraceFlags.SAMPLED) !== 0;
}

/** Status messages escape the attribute length limit; an error message may quote client input. */
function clipped(message: string | undefined): string | undefined {
  return message === undefined || message.length <= MAX_ATTRIBUTE_CHARS
    ? message
    : `${message.slice(0, MAX_ATTRIBUTE_CHARS - 1)}…`;
}
