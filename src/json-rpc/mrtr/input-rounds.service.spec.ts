import { RequestAbort } from '../../common/request-abort';
import { DEFAULT_CONFIG } from '../../config/config.defaults';
import { GatewayConfig } from '../../config/gateway-config';
import { GatewayError } from '../../errors/gateway.error';
import { McpSession } from '../../session/mcp-session';
import { DispatchedRequestContext } from '../dispatched-request.context';
import { JsonRpcParams, JsonRpcRequest } from '../json-rpc.types';
import { InputRounds } from './input-rounds.service';

const MODERN = '2026-07-28';
const QUESTION = { message: 'Name?', requestedSchema: { type: 'object', properties: {} } };
const ANSWER = { action: 'accept', content: { name: 'Ada' } };

function configWith(limits: Partial<GatewayConfig['limits']>): GatewayConfig {
  return {
    ...DEFAULT_CONFIG,
    limits: { ...DEFAULT_CONFIG.limits, ...limits },
    mrtr: { state_secret_ref: 'env:MRTR_SPEC_SECRET', state_ttl_seconds: 60 },
  };
}

function request(params: JsonRpcParams): JsonRpcRequest {
  return { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', ...params } };
}

function contextFor(message: JsonRpcRequest): DispatchedRequestContext {
  const session = new McpSession('streamable-http', 'client-a');
  session.protocolVersion = MODERN;
  return new DispatchedRequestContext(message, session, new RequestAbort(), {}, undefined);
}

function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (err: unknown) => (err instanceof GatewayError ? { code: err.code, data: err.data } : err),
  );
}

describe('InputRounds', () => {
  beforeAll(() => {
    process.env.MRTR_SPEC_SECRET = 'spec-secret';
  });

  afterAll(() => {
    delete process.env.MRTR_SPEC_SECRET;
  });

  it('asks a question under the same key on every run, and answers it on the retry', async () => {
    const rounds = new InputRounds(configWith({}));
    const first = request({});
    const round1 = rounds.open(first, contextFor(first))!;
    await expect(round1.ask('elicitation/create', QUESTION)).rejects.toThrow('Input required');
    const interim = rounds.interim(round1, first, contextFor(first));
    const [key] = Object.keys(interim.inputRequests);
    expect(key).toMatch(/^elicitation-[0-9a-f]{16}$/);

    const retry = request({ inputResponses: { [key]: ANSWER, stray: ANSWER } });
    retry.params!.requestState = interim.requestState;
    const round2 = rounds.open(retry, contextFor(retry))!;
    await expect(round2.ask('elicitation/create', QUESTION)).resolves.toEqual(ANSWER);
    expect(round2.pending).toBe(false);
    // Only the answers the handler used are carried on: a stray key is dropped.
    expect(round2.answersSoFar()).toEqual({ [key]: ANSWER });
  });

  it('asks a changed question again instead of giving it the answer of another one', async () => {
    const rounds = new InputRounds(configWith({}));
    const first = request({});
    const round1 = rounds.open(first, contextFor(first))!;
    void round1.ask('elicitation/create', QUESTION).catch(() => undefined);
    const [key] = Object.keys(rounds.interim(round1, first, contextFor(first)).inputRequests);
    const retry = request({ inputResponses: { [key]: ANSWER } });
    const round2 = rounds.open(retry, contextFor(retry))!;
    await expect(
      round2.ask('elicitation/create', { ...QUESTION, message: 'Other name?' }),
    ).rejects.toThrow('Input required');
  });

  it('refuses more questions in one result than limits.input_requests_per_round', async () => {
    const rounds = new InputRounds(configWith({ input_requests_per_round: 2 }));
    const message = request({});
    const round = rounds.open(message, contextFor(message))!;
    const asks = [1, 2, 3].map((n) =>
      errorOf(round.ask('elicitation/create', { ...QUESTION, message: `Question ${n}?` })),
    );
    const [, , third] = await Promise.all(asks);
    expect(third).toEqual({
      code: -32005,
      data: { limit: 'limits.input_requests_per_round', max: 2 },
    });
  });

  it('stops a handler that keeps asking after limits.input_rounds rounds', () => {
    const rounds = new InputRounds(configWith({ input_rounds: 2 }));
    let state: string | undefined;
    let refusal: unknown;
    // Bounded: the limit is 2, so the third interim result must be refused.
    for (let run = 1; run <= 3 && refusal === undefined; run++) {
      const message = request(state === undefined ? {} : { requestState: state });
      const context = contextFor(message);
      const round = rounds.open(message, context)!;
      void round.ask('elicitation/create', { ...QUESTION, message: `Run ${run}?` }).catch(() => 0);
      try {
        state = rounds.interim(round, message, context).requestState;
      } catch (err) {
        refusal = err instanceof GatewayError ? { code: err.code, data: err.data } : err;
      }
    }
    expect(refusal).toEqual({ code: -32005, data: { limit: 'limits.input_rounds', max: 2 } });
  });

  it('opens no round for methods that cannot ask, or for session-based revisions', () => {
    const rounds = new InputRounds(configWith({}));
    const list: JsonRpcRequest = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    expect(rounds.open(list, contextFor(list))).toBeUndefined();
    const legacy = request({});
    const context = new DispatchedRequestContext(
      legacy,
      new McpSession('streamable-http', 'client-a'),
      new RequestAbort(),
      {},
      undefined,
    );
    expect(rounds.open(legacy, context)).toBeUndefined();
  });
});
