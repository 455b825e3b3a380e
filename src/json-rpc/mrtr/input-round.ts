import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';
import { limitExceeded } from '../../errors/limit-exceeded';
import { JsonRpcParams } from '../json-rpc.types';
import { canonicalDigest } from './canonical-json';
import { InputRequiredSignal } from './input-required.signal';
import { validInputResponse } from './input-response.check';

/** One question for the client, as an input-required result lists it. */
export interface InputRequest {
  method: string;
  params: JsonRpcParams;
}

const KEY_PREFIX: Readonly<Record<string, string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/**
 * The default key of each question a handler asks in one run: a digest of
 * the question, so a re-run meets its own answers and a question that
 * changed is asked again rather than answered wrongly; the same question
 * asked twice in one run gets a second key, in the order asked.
 */
export class QuestionKeys {
  private readonly occurrences = new Map<string, number>();

  next(method: string, params: JsonRpcParams): string {
    const digest = canonicalDigest({ method, params }).slice(0, 16);
    const seen = (this.occurrences.get(digest) ?? 0) + 1;
    this.occurrences.set(digest, seen);
    const base = `${KEY_PREFIX[method] ?? 'input'}-${digest}`;
    return seen === 1 ? base : `${base}-${seen}`;
  }
}

/**
 * One run of a handler on a 2026-07-28 request: its asks are answered from
 * the earlier rounds (requestState) or this request's inputResponses, and
 * those left without an answer become the next input-required result.
 * Nothing outlives the request: the handler runs again on the retry.
 */
export class InputRound {
  private readonly keys = new QuestionKeys();
  private readonly asked = new Map<string, InputRequest>();
  private readonly used: Record<string, unknown> = {};

  constructor(
    /** Answers of the earlier rounds, from the verified requestState. */
    private readonly earlier: Readonly<Record<string, unknown>>,
    /** This request's inputResponses (already size-checked). */
    private readonly responses: Readonly<Record<string, unknown>>,
    private readonly maxAsks: number,
    /** Rounds answered before this one (0 on the first request). */
    readonly round: number,
  ) {}

  /**
   * The client's answer to this question, or a rejection with InputRequiredSignal
   * once it is recorded for the next result (keys: QuestionKeys).
   */
  ask(
    method: string,
    params: JsonRpcParams,
    key = this.keys.next(method, params),
  ): Promise<unknown> {
    if (Object.hasOwn(this.earlier, key)) return this.answer(key, this.earlier[key]);
    if (Object.hasOwn(this.responses, key)) {
      const response = this.responses[key];
      if (!validInputResponse(method, response)) {
        return Promise.reject(
          GatewayError.invalidParams(
            `Invalid params: inputResponses["${key}"] is not a result of ${method}`,
            { field: `inputResponses.${key}` },
          ),
        );
      }
      return this.answer(key, response);
    }
    if (!this.asked.has(key) && this.asked.size >= this.maxAsks) {
      return Promise.reject(
        limitExceeded(
          ErrorCode.ExecutionError,
          'input_requests_per_round',
          this.maxAsks,
          'Questions for the client in one input-required result',
        ),
      );
    }
    this.asked.set(key, { method, params });
    const pending = Promise.reject(new InputRequiredSignal(key));
    // A handler that never awaits its ask must not crash the process with an unhandled rejection.
    pending.catch(() => undefined);
    return pending;
  }

  /** True when the handler asked something it has no answer to: the request ends input-required. */
  get pending(): boolean {
    return this.asked.size > 0;
  }

  inputRequests(): Record<string, InputRequest> {
    return Object.fromEntries(this.asked);
  }

  /** The answers this run used: what the next requestState carries (unused keys are dropped). */
  answersSoFar(): Record<string, unknown> {
    return { ...this.used };
  }

  private answer(key: string, value: unknown): Promise<unknown> {
    this.used[key] = value;
    return Promise.resolve(value);
  }
}
