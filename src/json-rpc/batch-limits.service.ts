import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { limitExceeded } from '../errors/limit-exceeded';
import { RequestLog } from '../logging/request-log';
import { McpMetrics } from '../observability/mcp.metrics';
import { newTraceId } from '../observability/tracing/traceparent';
import { McpSession } from '../session/mcp-session';
import { failure } from './json-rpc.responses';
import { prepareResponse } from './json-rpc.serializer';
import { JsonRpcFailure, JsonRpcResponse } from './json-rpc.types';
import { carriedTraceId } from './request-trace';

/**
 * How large the answers to one batch may grow together
 * (limits.batch_max_response_bytes), for every transport; how many messages a
 * batch may hold is refused before it is parsed (FrameParser).
 */
@Injectable()
export class BatchLimitsService {
  private readonly maxResponseBytes: number;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly metrics: McpMetrics,
    private readonly requestLog: RequestLog,
  ) {
    this.maxResponseBytes = config.limits.batch_max_response_bytes;
  }

  /**
   * The answers in order, serialized as they will be sent, up to the byte
   * limit; every answer from the one that would pass it on is replaced by a
   * short error for its id, so the whole answer stays within the limit plus
   * one such error per entry. A replaced call has run (and is in the ledger);
   * its error carries the trace id it ran under (`traces`, else the one its
   * answer carried) and gets a request line of its own, as a refusal.
   */
  capAnswers(
    responses: JsonRpcResponse[],
    traces: ReadonlyMap<JsonRpcResponse, string>,
    session: McpSession,
  ): JsonRpcResponse[] {
    // Brackets and commas of the JSON array.
    let total = 2 + Math.max(responses.length - 1, 0);
    for (let index = 0; index < responses.length; index++) {
      const { response, bytes } = prepareResponse(responses[index]);
      responses[index] = response;
      total += bytes;
      if (total <= this.maxResponseBytes) continue;
      this.metrics.recordLimitRefusal('batch_max_response_bytes');
      for (let withheld = index; withheld < responses.length; withheld++) {
        const answer = responses[withheld];
        const traceId = traces.get(answer) ?? carriedTraceId(answer) ?? newTraceId();
        responses[withheld] = this.withheld(answer, traceId, session);
      }
      break;
    }
    return responses;
  }

  private withheld(
    response: JsonRpcResponse,
    traceId: string,
    session: McpSession,
  ): JsonRpcFailure {
    const error = limitExceeded(
      ErrorCode.InvalidRequest,
      'batch_max_response_bytes',
      this.maxResponseBytes,
      "answer withheld: this batch's answer",
    );
    const data = { ...error.data, retryable: false, traceId };
    const answer = failure(response.id, error.code, error.message, data);
    this.requestLog.refused({ response: answer, session, traceId });
    return answer;
  }
}
