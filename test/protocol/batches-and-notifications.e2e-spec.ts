/**
 * Ids, notifications and JSON-RPC batches over both transports: what gets an
 * answer, what stays silent, and how batching depends on the negotiated revision.
 */
import {
  BOOT_TIMEOUT_MS,
  expectRpcError,
  expectRpcResult,
  Json,
  openAdapter,
  RpcAdapter,
  RpcReply,
  TRANSPORTS,
} from '../support/rpc-adapter';
import { killAllGateways } from '../support/tracked-gateways';

const req = (id: unknown, method: string, params?: Json) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});
const note = (method: string, params?: Json) => ({
  jsonrpc: '2.0',
  method,
  ...(params === undefined ? {} : { params }),
});

/** Over HTTP "no response" is 202 with an empty body; over stdio nothing on stdout. */
function expectNoResponse(rpc: RpcAdapter, reply: RpcReply): void {
  expect(reply.body).toBeUndefined();
  expect(reply.raw).toBe('');
  if (rpc.name === 'http') expect(reply.status).toBe(202);
}

function byId(batch: unknown): Map<unknown, Json> {
  expect(Array.isArray(batch)).toBe(true);
  const responses = batch as Json[];
  for (const response of responses) expect(response.jsonrpc).toBe('2.0');
  return new Map(responses.map((r) => [r.id, r]));
}

const IDS: Array<[string, string | number]> = [
  ['string', 'req-1'],
  ['empty string', ''],
  ['unicode string', 'ключ-🦉-数'],
  ['string that looks numeric', '7'],
  ['zero', 0],
  ['negative integer', -42],
  ['large safe integer', Number.MAX_SAFE_INTEGER],
];

afterAll(killAllGateways);

describe.each(TRANSPORTS)('%s under protocol 2025-03-26 (batching allowed)', (transport) => {
  let rpc: RpcAdapter;

  beforeAll(async () => {
    rpc = await openAdapter(transport);
    await rpc.initialize('2025-03-26');
  }, BOOT_TIMEOUT_MS);

  afterAll(async () => {
    await rpc?.close();
  });

  it.each(IDS)('echoes a %s id exactly', async (_kind, id) => {
    const reply = await rpc.send(req(id, 'fixture/echo', { id }));
    const result = expectRpcResult(reply, id);
    expect(result.params).toEqual({ id });
    // The raw bytes carry the id with its type: "7" stays a string, 0 stays a number.
    expect(reply.raw).toContain(`"id":${JSON.stringify(id)}`);
  });

  it.each(IDS)('echoes a %s id on errors too', async (_kind, id) => {
    expectRpcError(await rpc.send(req(id, 'no/such')), -32601, id);
  });

  it.each([
    ['a known notification', note('notifications/initialized')],
    ['an unknown notification', note('notifications/unknown', { x: 1 })],
    ['a method called without id', note('fixture/echo', { silent: true })],
    ['a method that fails, called without id', note('fixture/raise', { code: -32005 })],
    ['a cancellation of nothing', note('notifications/cancelled', { requestId: 'none' })],
    ['a response to no pending request', { jsonrpc: '2.0', id: 'srv-404', result: {} }],
  ])('%s gets no response', async (_title, frame) => {
    expectNoResponse(rpc, await rpc.sendUnanswered(frame));
  });

  it('answers a mixed batch element by element in one array', async () => {
    const reply = await rpc.send([
      req(1, 'ping'),
      note('notifications/initialized'),
      42,
      { jsonrpc: '2.0', id: 'no-method' },
      { jsonrpc: '1.0', id: 'old', method: 'ping' },
      req(true, 'ping'),
      req('echo', 'fixture/echo', { n: 1 }),
      req(-3, 'fixture/raise', { code: -32002 }),
      req('', 'no/such/method'),
      note('fixture/echo', { silent: true }),
    ]);
    if (transport === 'http') {
      expect(reply.status).toBe(200);
      expect(reply.contentType).toMatch(/^application\/json\b/);
    }
    const batch = reply.body as Json[];
    // 10 elements, 2 notifications: 8 answers, two of them with id null.
    expect(batch).toHaveLength(8);
    const answers = byId(batch);
    expect(answers.get(1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(answers.get('echo')).toMatchObject({ result: { params: { n: 1 } } });
    expect(answers.get('no-method')).toMatchObject({ error: { code: -32600 } });
    expect(answers.get('old')).toMatchObject({ error: { code: -32600 } });
    expect(answers.get(-3)).toMatchObject({ error: { code: -32002 } });
    expect(answers.get('')).toMatchObject({ error: { code: -32601 } });
    const nullIds = batch.filter((r) => r.id === null);
    expect(nullIds).toHaveLength(2);
    for (const answer of nullIds) expect(answer).toMatchObject({ error: { code: -32600 } });
  });

  it('sends nothing back for a batch of notifications only', async () => {
    const reply = await rpc.sendUnanswered([
      note('notifications/initialized'),
      note('fixture/echo', { a: 1 }),
      note('notifications/whatever'),
    ]);
    expectNoResponse(rpc, reply);
  });

  it('refuses initialize inside a batch and answers the rest', async () => {
    const reply = await rpc.send([
      req('init-in-batch', 'initialize', {
        protocolVersion: '2025-03-26',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      }),
      req('after', 'ping'),
    ]);
    const answers = byId(reply.body);
    expect(answers.size).toBe(2);
    expect(answers.get('init-in-batch')).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/batch/) },
    });
    expect(answers.get('after')).toEqual({ jsonrpc: '2.0', id: 'after', result: {} });
  });

  it('answers a batch of one as an array of one', async () => {
    const reply = await rpc.send([req('solo', 'ping')]);
    expect(reply.body).toEqual([{ jsonrpc: '2.0', id: 'solo', result: {} }]);
  });
});

describe.each(TRANSPORTS)('%s under protocol 2025-06-18 (batching removed)', (transport) => {
  let rpc: RpcAdapter;

  beforeAll(async () => {
    rpc = await openAdapter(transport);
    const init = await rpc.initialize('2025-06-18');
    expect(init).toMatchObject({ result: { protocolVersion: '2025-06-18' } });
  }, BOOT_TIMEOUT_MS);

  afterAll(async () => {
    await rpc?.close();
  });

  it('refuses a batch with one -32600 (not an array), running none of it', async () => {
    const handlerRuns = async () =>
      expectRpcResult(await rpc.send(req('count', 'probe/counters')), 'count').handler;
    const before = await handlerRuns();
    const reply = await rpc.send([req('b1', 'probe/run'), req('b2', 'ping'), note('probe/run')]);
    expect(Array.isArray(reply.body)).toBe(false);
    const error = expectRpcError(reply, -32600, null);
    expect(error.message).toMatch(/batch/i);
    expect(error.message).toContain('2025-06-18');
    expect(await handlerRuns()).toBe(before);
    // The same call outside a batch does run.
    expectRpcResult(await rpc.send(req('b3', 'probe/run')), 'b3');
    expect(await handlerRuns()).toBe((before as number) + 1);
  });

  it('refuses a batch of notifications only with the same -32600, on both transports', async () => {
    const reply = await rpc.send([note('notifications/initialized'), note('probe/run')]);
    const error = expectRpcError(reply, -32600, null);
    expect(error.message).toContain('2025-06-18');
  });

  it('still answers single requests and keeps notifications silent', async () => {
    expectRpcResult(await rpc.send(req('single', 'ping')), 'single');
    expectNoResponse(rpc, await rpc.sendUnanswered(note('notifications/initialized')));
  });
});
