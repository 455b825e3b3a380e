import { Inject, Injectable, Logger } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { JsonRpcFailure, JsonRpcRequest, JsonRpcResponse } from '../json-rpc/json-rpc.types';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { ArgumentRedactor } from '../ledger/argument-redactor';
import { endedRequestOutcome, outcomeOfCode } from '../observability/outcome';
import { McpSession } from '../session/mcp-session';
import {
  clippedJson,
  clipText,
  LOGGED_ARGUMENTS_MAX_CHARS,
  LOGGED_ID_MAX_CHARS,
  LOGGED_NAME_MAX_CHARS,
  loggedId,
} from './clipped-text';
import { requestLogLevel } from './request-log.level';

/** Outcomes of requests that went well: the ones sampling may leave out. */
const SAMPLED_OUTCOMES: ReadonlySet<string> = new Set(['success', 'input_required', 'cancelled']);

/** One request as it ended, for its line. */
export interface EndedRequest {
  request: JsonRpcRequest;
  session: McpSession;
  /** Undefined when the request was refused before its method ran. */
  context?: McpRequestContext;
  /** Undefined when the client cancelled it (it got no answer). */
  response?: JsonRpcResponse;
  traceId: string;
  durationMs: number;
  /** The params that passed `limits.argument_*`: the ones the debug line may show. */
  loggableParams?: readonly string[];
}

/** A message answered with an error before it was dispatched (unparseable, invalid, a refused batch). */
export interface RefusedMessage {
  response: JsonRpcFailure;
  /** Undefined when the transport refused the message before it had a session. */
  session?: McpSession;
  traceId: string;
}

/**
 * The request log: one `mcp request` line per request when it ends, at the
 * level its outcome deserves (request-log.level.ts). Successful lines may be
 * sampled (`logging.request_log_success_sample_ratio`); failed ones never are.
 * Arguments appear at debug only, redacted like the ledger's.
 */
@Injectable()
export class RequestLog {
  private readonly logger = new Logger('McpRequest');
  private readonly enabled: boolean;
  private readonly successRatio: number;
  private readonly withArguments: boolean;
  private readonly redactor: ArgumentRedactor;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.enabled = config.logging.request_log;
    this.successRatio = config.logging.request_log_success_sample_ratio;
    this.withArguments = config.logging.level === 'debug';
    this.redactor = new ArgumentRedactor(config.ledger.redact_keys);
  }

  ended(ended: EndedRequest): void {
    if (!this.enabled) return;
    const { request, session, context, response } = ended;
    const error = response !== undefined && 'error' in response ? response.error : undefined;
    const outcome = endedRequestOutcome(response, context);
    // A tool's own error is a failure too: it always shows.
    if (SAMPLED_OUTCOMES.has(outcome) && !this.keepsSuccess()) return;
    const line: Record<string, unknown> = {
      msg: 'mcp request',
      method: clipText(request.method, LOGGED_ID_MAX_CHARS),
      target: targetOf(request, context),
      taskId: context?.call.taskId,
      clientId: session.clientId,
      sessionId: session.id,
      requestId: loggedId(request.id),
      traceId: ended.traceId,
      durationMs: Math.round(ended.durationMs * 1000) / 1000,
      outcome,
      errorCode: error?.code,
      // Redacted like the ledger's error message: a tool may echo what it was given.
      error: error && clipText(this.redactor.redactText(error.message), LOGGED_NAME_MAX_CHARS),
      incidentId: incidentOf(error?.data),
    };
    if (this.withArguments && ended.loggableParams) {
      Object.assign(line, this.paramsOf(request, ended.loggableParams));
    }
    this.logger[error === undefined ? 'log' : requestLogLevel(error)](line);
  }

  refused(refused: RefusedMessage): void {
    if (!this.enabled) return;
    const { response, session } = refused;
    this.logger[requestLogLevel(response.error)]({
      msg: 'mcp request',
      clientId: session?.clientId,
      sessionId: session?.id,
      requestId: response.id === null ? undefined : loggedId(response.id),
      traceId: refused.traceId,
      durationMs: 0,
      outcome: outcomeOfCode(response.error.code),
      errorCode: response.error.code,
      error: clipText(this.redactor.redactText(response.error.message), LOGGED_NAME_MAX_CHARS),
    });
  }

  private keepsSuccess(): boolean {
    return this.successRatio >= 1 || Math.random() < this.successRatio;
  }

  /** The argument-like params, redacted, as JSON cut to LOGGED_ARGUMENTS_MAX_CHARS (and their full length). */
  private paramsOf(
    request: JsonRpcRequest,
    fields: readonly string[],
  ): { params: string; paramsLength?: number } {
    const params = request.params ?? {};
    const shown: Record<string, unknown> = {};
    for (const field of fields) if (params[field] !== undefined) shown[field] = params[field];
    const { text, fullLength } = clippedJson(
      this.redactor.redact(shown),
      LOGGED_ARGUMENTS_MAX_CHARS,
    );
    return { params: text, paramsLength: fullLength };
  }
}

/** The tool or prompt name, resource URI or task id the request addressed, when it names one. */
function targetOf(request: JsonRpcRequest, context?: McpRequestContext): string | undefined {
  const params = request.params;
  const named = context?.call.target ?? params?.name ?? params?.uri ?? params?.taskId;
  return typeof named === 'string' ? clipText(named, LOGGED_NAME_MAX_CHARS) : undefined;
}

function incidentOf(data: unknown): string | undefined {
  const incident = (data as { incident_id?: unknown } | undefined)?.incident_id;
  return typeof incident === 'string' ? incident : undefined;
}
