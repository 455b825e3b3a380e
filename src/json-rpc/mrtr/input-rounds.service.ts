import { Inject, Injectable } from '@nestjs/common';
import { boundedJsonSize } from '../../common/bounded-json-size';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';
import { limitExceeded } from '../../errors/limit-exceeded';
import { JsonRpcParams, JsonRpcRequest } from '../json-rpc.types';
import { McpRequestContext } from '../mcp-request-context';
import { isModernVersion } from '../protocol-version';
import { canonicalDigest } from './canonical-json';
import { InputRound } from './input-round';
import { INPUT_RESPONSES_PARAM, MRTR_METHODS, REQUEST_STATE_PARAM } from './mrtr.constants';
import { RequestStateClaims, RequestStateCodec } from './request-state.codec';
import { requestStateSecret } from './request-state.secret';

/** An interim answer of 2026-07-28: what the client must answer before the retry. */
export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests: ReturnType<InputRound['inputRequests']>;
  requestState: string;
}

/**
 * Multi round-trip requests (2026-07-28 basic/patterns/mrtr) for the
 * dispatcher: opens a round from a request's inputResponses and verified
 * requestState, and turns a round left with questions into an
 * input-required result whose signed state carries the answers so far.
 */
@Injectable()
export class InputRounds {
  private readonly codec: RequestStateCodec;
  private readonly limits: GatewayConfig['limits'];
  private readonly ttlMs: number;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.codec = new RequestStateCodec(requestStateSecret(config.mrtr.state_secret_ref));
    this.limits = config.limits;
    this.ttlMs = config.mrtr.state_ttl_seconds * 1000;
  }

  /** The round of a modern tools/call, prompts/get or resources/read; undefined for anything else. */
  open(request: JsonRpcRequest, context: McpRequestContext): InputRound | undefined {
    if (!isModernVersion(context.session.protocolVersion) || !MRTR_METHODS.has(request.method)) {
      return undefined;
    }
    const params = request.params ?? {};
    const responses = this.readResponses(params[INPUT_RESPONSES_PARAM]);
    const state = params[REQUEST_STATE_PARAM];
    if (state === undefined) {
      return new InputRound({}, responses, this.limits.input_requests_per_round, 0);
    }
    if (typeof state !== 'string') {
      throw GatewayError.invalidParams('Invalid params: requestState must be a string', {
        field: REQUEST_STATE_PARAM,
      });
    }
    // The state carries at most input_responses_bytes of answers; base64 and the MAC add a third and a bit.
    const maxStateChars = Math.ceil((this.limits.input_responses_bytes * 4) / 3) + 1024;
    if (state.length > maxStateChars) {
      throw limitExceeded(
        ErrorCode.InvalidParams,
        'input_responses_bytes',
        this.limits.input_responses_bytes,
        'requestState (the answers it carries)',
      );
    }
    const claims = this.codec.decode(state, this.identify(request, context));
    return new InputRound(
      claims.answers,
      responses,
      this.limits.input_requests_per_round,
      claims.round,
    );
  }

  /** The input-required result for a round that ended with questions; marks the call as interim. */
  interim(
    round: InputRound,
    request: JsonRpcRequest,
    context: McpRequestContext,
  ): InputRequiredResult {
    const next = round.round + 1;
    if (next > this.limits.input_rounds) {
      throw limitExceeded(
        ErrorCode.ExecutionError,
        'input_rounds',
        this.limits.input_rounds,
        `Input-required rounds of this ${request.method}`,
      );
    }
    const answers = round.answersSoFar();
    const max = this.limits.input_responses_bytes;
    if (boundedJsonSize(answers, max) > max) {
      throw limitExceeded(
        ErrorCode.InvalidParams,
        'input_responses_bytes',
        max,
        'Answers carried between rounds',
      );
    }
    const claims: RequestStateClaims = {
      ...this.identify(request, context),
      expiresAt: Date.now() + this.ttlMs,
      round: next,
      answers,
    };
    context.call.inputRequired = true;
    return {
      resultType: 'input_required',
      inputRequests: round.inputRequests(),
      requestState: this.codec.encode(claims),
    };
  }

  private readResponses(value: unknown): Record<string, unknown> {
    if (value === undefined) return {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw GatewayError.invalidParams('Invalid params: inputResponses must be an object', {
        field: INPUT_RESPONSES_PARAM,
      });
    }
    const max = this.limits.input_responses_bytes;
    if (boundedJsonSize(value, max) > max) {
      throw limitExceeded(ErrorCode.InvalidParams, 'input_responses_bytes', max, 'inputResponses');
    }
    return value as Record<string, unknown>;
  }

  /** Who and what a state is bound to: the caller, and the request without its MRTR fields. */
  private identify(
    request: JsonRpcRequest,
    context: McpRequestContext,
  ): Pick<RequestStateClaims, 'principal' | 'method' | 'paramsDigest'> {
    const rest: JsonRpcParams = { ...request.params };
    delete rest._meta;
    delete rest[INPUT_RESPONSES_PARAM];
    delete rest[REQUEST_STATE_PARAM];
    return {
      principal: `${context.session.owner}\u0000${context.clientId}`,
      method: request.method,
      paramsDigest: canonicalDigest(rest),
    };
  }
}
