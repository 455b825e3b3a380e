/**
 * Finding 3 of issue #21: a 2024-11-05 session could send a batch of any
 * length, and an 844 KB batch of tools/list drew a 242 MB answer. Now a batch
 * holds at most limits.batch_max_requests messages, and the answers to one
 * batch stop at limits.batch_max_response_bytes (later ones become errors
 * naming the limit). Real gateways, loopback only, the byte limit set low.
 */
import { HttpGatewayChild } from '../support/http-child';
import { SessionPoster } from '../support/session-poster';
import { refusals as limitRefusals } from './support/limit-refusals';
import { tempLedgerPath } from '../support/test-defaults';
import { killAllGateways, spawnTracked } from '../support/tracked-gateways';
import { httpRequest } from '../robustness/support/limits-client';

const VERSION = '2024-11-05';
const MAX_REQUESTS = 100;
const MAX_RESPONSE_BYTES = 256 * 1024;
/** What one withheld answer may cost at most: an error naming the limit, for its id. */
const WITHHELD_BYTES = 300;
const LIMIT_ENV = { MCP_SERVER_LIMITS_BATCH_MAX_RESPONSE_BYTES: String(MAX_RESPONSE_BYTES) };

interface Answer {
  id: string | number | null;
  result?: { tools?: unknown[] };
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

const request = (id: string, method: string) => ({ jsonrpc: '2.0', id, method });
const batchOf = (count: number, method: string, prefix = method) =>
  Array.from({ length: count }, (_, i) => request(`${prefix}-${i}`, method));

/** The answers come in order: whole ones up to the limit, then errors naming it, each with its id. */
function expectCapped(answers: Answer[], ids: string[]): number {
  expect(answers.map((answer) => answer.id)).toEqual(ids);
  const firstWithheld = answers.findIndex((answer) => answer.error !== undefined);
  expect(firstWithheld).toBeGreaterThan(0);
  for (const answer of answers.slice(0, firstWithheld)) expect(answer.result?.tools).toBeDefined();
  for (const answer of answers.slice(firstWithheld)) {
    expect(answer.error).toMatchObject({
      code: -32600,
      data: { limit: 'limits.batch_max_response_bytes', max: MAX_RESPONSE_BYTES },
    });
    expect(answer.error?.message).toContain(
      `limits.batch_max_response_bytes (${MAX_RESPONSE_BYTES})`,
    );
  }
  return firstWithheld;
}

describe('batch amplification (issue #21, finding 3) over HTTP', () => {
  let gateway: HttpGatewayChild;
  let poster: SessionPoster;

  beforeAll(async () => {
    gateway = await HttpGatewayChild.start({
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: '0',
      MCP_SERVER_LEDGER_ENABLED: 'false',
      // The task store lives beside the ledger's path: a temp one, not ./data shared with other suites.
      MCP_SERVER_LEDGER_SQLITE_PATH: tempLedgerPath(),
      ...LIMIT_ENV,
    });
    poster = await SessionPoster.open(gateway.baseUrl, VERSION);
  }, 120_000);

  afterAll(async () => {
    poster?.close();
    await gateway?.stop();
  }, 30_000);

  const post = (body: unknown) => poster.post(JSON.stringify(body));

  const refusals = (limit: string) => limitRefusals(gateway.baseUrl, limit);

  it('answers a batch of exactly batch_max_requests messages in full', async () => {
    const answer = await post(batchOf(MAX_REQUESTS, 'ping'));
    const answers = JSON.parse(answer.text) as Answer[];
    expect(answers).toHaveLength(MAX_REQUESTS);
    for (const one of answers) expect(one.result).toEqual({});
  });

  it('refuses a longer batch as a whole with one -32600 naming the limit', async () => {
    const before = await refusals('batch_max_requests');
    const answer = await post(batchOf(MAX_REQUESTS + 1, 'ping'));
    // Refused in the pass over the body's text, before it is parsed, like any frame too large.
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: `Invalid Request: the number of messages in the batch exceeds limits.batch_max_requests (${MAX_REQUESTS})`,
        data: {
          limit: 'limits.batch_max_requests',
          max: MAX_REQUESTS,
          retryable: false,
          traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
        },
      },
    });
    expect(await refusals('batch_max_requests')).toBe(before + 1);
  });

  it("refuses the review's 844 KB batch of 30,000 tools/list with one small error", async () => {
    const batch = batchOf(30_000, 'tools/list', 't');
    expect(Buffer.byteLength(JSON.stringify(batch))).toBeGreaterThan(800_000);
    const answer = await post(batch);
    expect(answer.text.length).toBeLessThan(1024);
    expect(JSON.parse(answer.text)).toMatchObject({
      id: null,
      error: { code: -32600, data: { limit: 'limits.batch_max_requests' } },
    });
  });

  it('stops the answers to a batch of tools/list at batch_max_response_bytes, later ids answered with the limit', async () => {
    const single = await post(request('one', 'tools/list'));
    const singleBytes = Buffer.byteLength(single.text);
    // The fixture's tool list is large enough that 100 of them pass the limit, small enough that one fits.
    expect(singleBytes).toBeLessThan(MAX_RESPONSE_BYTES / 2);
    expect(singleBytes * MAX_REQUESTS).toBeGreaterThan(MAX_RESPONSE_BYTES);

    const before = await refusals('batch_max_response_bytes');
    const batch = batchOf(MAX_REQUESTS, 'tools/list');
    // Five at once while /health is asked: the gateway stays responsive.
    const [answers, health] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => post(batch))),
      Promise.all(
        Array.from({ length: 5 }, () =>
          httpRequest(`${gateway.baseUrl}/health`, { timeoutMs: 20_000 }),
        ),
      ),
    ]);
    for (const probe of health) expect(probe.status).toBe(200);
    for (const answer of answers) {
      expect(Buffer.byteLength(answer.text)).toBeLessThanOrEqual(
        MAX_RESPONSE_BYTES + MAX_REQUESTS * WITHHELD_BYTES,
      );
      const parsed = JSON.parse(answer.text) as Answer[];
      const whole = expectCapped(
        parsed,
        batch.map((entry) => entry.id),
      );
      // As many whole answers as fit (array brackets and commas included), not one more.
      const wholeBytes = parsed
        .slice(0, whole)
        .reduce((sum, one) => sum + Buffer.byteLength(JSON.stringify(one)), 0);
      const framing = 2 + MAX_REQUESTS - 1;
      expect(framing + wholeBytes).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
      // Ids here are up to 12 bytes longer than the single call's.
      expect(framing + wholeBytes + singleBytes + 12).toBeGreaterThan(MAX_RESPONSE_BYTES);
    }
    expect(await refusals('batch_max_response_bytes')).toBe(before + 5);
    expect(gateway.child.exitCode).toBeNull();
  });
});

describe('batch amplification (issue #21, finding 3) over stdio', () => {
  afterAll(() => killAllGateways(), 30_000);

  it('refuses a batch over the length limit and caps the answers to a batch of tools/list', async () => {
    const gateway = await spawnTracked({ fixtures: true, env: LIMIT_ENV });
    await gateway.initialize(VERSION);
    gateway.send(batchOf(MAX_REQUESTS + 1, 'ping'));
    const refused = await gateway.waitFor((m) => m.id === null && 'error' in m, 20_000);
    expect(refused.error).toMatchObject({
      code: -32600,
      data: { limit: 'limits.batch_max_requests', max: MAX_REQUESTS },
    });

    const batch = batchOf(MAX_REQUESTS, 'tools/list');
    gateway.send(batch);
    const answers = (await gateway.waitFor((m) => Array.isArray(m), 20_000)) as unknown as Answer[];
    expectCapped(
      answers,
      batch.map((entry) => entry.id),
    );
    const line = gateway.stdoutLines.find((text) => text.startsWith('['))!;
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(
      MAX_RESPONSE_BYTES + MAX_REQUESTS * WITHHELD_BYTES,
    );
    expect(await gateway.request('ping')).toMatchObject({ result: {} });
    await gateway.kill();
  });
});
