import { Logger } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type ClientCapabilities,
  type CreateMessageResult,
  CreateMessageRequestSchema,
  type ElicitResult,
  ElicitRequestSchema,
  ErrorCode as McpErrorCode,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { RelayCall, RelayCaller, UpstreamRelayCalls } from './upstream-relay.calls';
import { UPSTREAM_RELAY_LIMITS } from './upstream-relay.limits';

/**
 * What the gateway's client declares to upstreams: it takes their sampling
 * and form elicitation requests and relays them to the calling client (URL
 * elicitation is not relayed: the gateway cannot tell whether the caller supports it).
 */
export const RELAYED_CLIENT_CAPABILITIES: ClientCapabilities = {
  sampling: {},
  elicitation: { form: {} },
};

type RelayedMethod = 'sampling/createMessage' | 'elicitation/create';

/**
 * Answers an upstream's `sampling/createMessage` and `elicitation/create`
 * by asking the client whose tools/call is in flight on that connection
 * (see UpstreamRelayCalls for which one). Every refusal is a JSON-RPC
 * error the upstream sees, with `data.reason`.
 */
export function relayClientRequests(
  client: Client,
  calls: UpstreamRelayCalls,
  serverId: string,
): void {
  const logger = new Logger(`Upstream ${serverId}`);
  const relay = async (
    method: RelayedMethod,
    params: Record<string, unknown>,
    upstreamSignal: AbortSignal,
  ): Promise<Record<string, unknown>> => {
    const { call, caller } = attributed(calls, method);
    if (caller.answersByRetry) {
      // Its answer would come on a retry, which would run the upstream's tool again from the start.
      throw refused(
        McpErrorCode.InvalidRequest,
        `${method} refused: the calling client uses protocol 2026-07-28, which answers only on a retry of its request, and the gateway does not run an upstream's tool call twice`,
        'caller_answers_by_retry',
      );
    }
    const forwarded = withoutMeta(params);
    const paramsBytes = Buffer.byteLength(JSON.stringify(forwarded));
    if (paramsBytes > UPSTREAM_RELAY_LIMITS.maxParamsBytes) {
      throw refused(
        McpErrorCode.InvalidParams,
        `${method} params are ${paramsBytes} bytes, over the relay limit of ${UPSTREAM_RELAY_LIMITS.maxParamsBytes}`,
        'too_large',
      );
    }
    if (call.relayed >= UPSTREAM_RELAY_LIMITS.maxRequestsPerCall) {
      throw refused(
        McpErrorCode.InvalidRequest,
        `${method} refused: this call already relayed ${UPSTREAM_RELAY_LIMITS.maxRequestsPerCall} requests (the per-call limit)`,
        'too_many',
      );
    }
    call.relayed++;
    const options = { timeoutMs: UPSTREAM_RELAY_LIMITS.timeoutMs };
    const ask =
      method === 'sampling/createMessage'
        ? caller.sample(forwarded, options)
        : caller.elicit(forwarded, options);
    let result: Record<string, unknown>;
    try {
      result = await untilAborted(ask, upstreamSignal);
    } catch (error) {
      throw fromCallerError(method, error);
    }
    const resultBytes = Buffer.byteLength(JSON.stringify(result));
    if (resultBytes > UPSTREAM_RELAY_LIMITS.maxResultBytes) {
      throw refused(
        McpErrorCode.InternalError,
        `the client's ${method} answer is ${resultBytes} bytes, over the relay limit of ${UPSTREAM_RELAY_LIMITS.maxResultBytes}`,
        'too_large',
      );
    }
    logger.debug({ msg: 'upstream request relayed', server_id: serverId, method });
    return result;
  };
  // The SDK client validates both the upstream's request and the client's answer against the spec's schemas.
  // Refusals are logged at debug only: an upstream could send requests faster than a log should grow.
  const relayLogged = (
    method: RelayedMethod,
    params: Record<string, unknown>,
    signal: AbortSignal,
  ) =>
    relay(method, params, signal).catch((error: unknown) => {
      const reason =
        error instanceof McpError ? (error.data as { reason?: unknown })?.reason : undefined;
      logger.debug({ msg: 'upstream request not relayed', server_id: serverId, method, reason });
      throw error;
    });
  client.setRequestHandler(
    CreateMessageRequestSchema,
    (request, extra) =>
      relayLogged(
        'sampling/createMessage',
        request.params,
        extra.signal,
      ) as Promise<CreateMessageResult>,
  );
  client.setRequestHandler(
    ElicitRequestSchema,
    (request, extra) =>
      relayLogged('elicitation/create', request.params, extra.signal) as Promise<ElicitResult>,
  );
}

function attributed(
  calls: UpstreamRelayCalls,
  method: RelayedMethod,
): { call: RelayCall; caller: RelayCaller } {
  const attribution = calls.attribute();
  if ('call' in attribution) return attribution;
  const why = {
    no_call_in_flight: 'no tools/call of a client is in flight on this upstream',
    ambiguous: `tools/calls of ${attribution.sessions} client sessions are in flight on this upstream, so the request cannot be attributed to one`,
    no_caller: 'the call in flight was not made for a client',
  }[attribution.refused];
  throw refused(McpErrorCode.InvalidRequest, `${method} refused: ${why}`, attribution.refused);
}

function refused(code: number, message: string, reason: string): McpError {
  return new McpError(code, message, { reason });
}

/** The upstream's own `_meta` (its progress token, related task) means nothing to the client. */
function withoutMeta(params: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...params };
  delete rest._meta;
  return rest;
}

/** The caller's refusal, as the upstream should see it. */
function fromCallerError(method: RelayedMethod, error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof GatewayError) {
    if (typeof error.data.capability === 'string') {
      return refused(
        McpErrorCode.InvalidRequest,
        `${method} refused: the calling client did not declare the ${error.data.capability} capability`,
        'no_capability',
      );
    }
    if (error.code === ErrorCode.Timeout) {
      return refused(
        McpErrorCode.RequestTimeout,
        `${method} refused: the calling client did not answer within ${UPSTREAM_RELAY_LIMITS.timeoutMs} ms`,
        'timeout',
      );
    }
    const clientError = error.data.clientError as { code?: unknown; message?: unknown } | undefined;
    if (typeof clientError?.code === 'number' && typeof clientError.message === 'string') {
      return new McpError(clientError.code, clientError.message, { reason: 'client_error' });
    }
    return refused(McpErrorCode.InternalError, `${method} failed: ${error.message}`, 'failed');
  }
  return refused(McpErrorCode.InternalError, `${method} failed`, 'failed');
}

/** Stops waiting when the upstream cancels its request (the caller's own wait ends on its timeout). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
