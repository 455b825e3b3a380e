/**
 * Finding 2 of issue #21: one tools/call whose arguments carried 300,000
 * unknown keys froze the event loop for a minute (quadratic validation) and
 * drew a 33 MB error. Now a message with that many keys is refused before it
 * is parsed (limits.message_*), arguments under those limits are measured
 * against limits.argument_* before anything walks them, validation is
 * linear, and the error lists a bounded number of problems. Real gateways,
 * loopback only.
 */
import { HttpGatewayChild } from '../support/http-child';
import { SessionPoster } from '../support/session-poster';
import { refusals as limitRefusals } from './support/limit-refusals';
import { openSettledLedger } from '../support/sqlite-ledger';
import { tempLedgerPath } from '../support/test-defaults';
import { killAllGateways, spawnTracked } from '../support/tracked-gateways';
import { httpRequest, RawAnswer } from '../robustness/support/limits-client';

const VERSION = '2025-06-18';
/** An invalid-arguments answer never needs more than this, whatever was sent. */
const SMALL_ANSWER_BYTES = 8 * 1024;

interface RpcError {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

function unknownKeys(count: number, prefix = 'k'): Record<string, number> {
  const keys: Record<string, number> = {};
  for (let i = 0; i < count; i++) keys[`${prefix}${i}`] = 0;
  return keys;
}

function deep(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = { d: value };
  return value;
}

const toolCall = (id: string, name: string, args: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('argument freeze (issue #21, finding 2) over HTTP', () => {
  let gateway: HttpGatewayChild;
  let poster: SessionPoster;
  const ledgerPath = tempLedgerPath();

  beforeAll(async () => {
    gateway = await HttpGatewayChild.start({
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: '0',
      MCP_SERVER_LEDGER_SQLITE_PATH: ledgerPath,
    });
    poster = await SessionPoster.open(gateway.baseUrl, VERSION);
  }, 120_000);

  afterAll(async () => {
    poster?.close();
    await gateway?.stop();
  }, 30_000);

  const post = (body: string) => poster.post(body);

  function errorOf(answer: RawAnswer, id: string): RpcError {
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.text) as { id: string; error: RpcError };
    expect(body.id).toBe(id);
    return body.error;
  }

  /** Fires /health every 50 ms while `work` runs; every probe must be answered. */
  async function whileProbingHealth<T>(work: Promise<T>): Promise<T> {
    const probes: Array<Promise<RawAnswer>> = [];
    let done = false;
    const result = work.finally(() => (done = true));
    while (!done && probes.length < 200) {
      probes.push(httpRequest(`${gateway.baseUrl}/health`, { timeoutMs: 20_000 }));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const value = await result;
    for (const probe of await Promise.all(probes)) expect(probe.status).toBe(200);
    return value;
  }

  const refusals = (limit: string) => limitRefusals(gateway.baseUrl, limit);

  it('refuses 300,000 unknown keys to a DTO tool at once, unparsed, naming limits.message_max_keys, while /health answers', async () => {
    const before = await refusals('message_max_keys');
    const body = toolCall('flood', 'fx_counted', unknownKeys(300_000));
    expect(Buffer.byteLength(body)).toBeLessThan(4 * 1024 * 1024);
    // Three at once, as an attacker would; each was a minute of frozen event loop.
    const answers = await whileProbingHealth(Promise.all([post(body), post(body), post(body)]));
    for (const answer of answers) {
      // Refused before parsing: the id is not known.
      expect(answer.status).toBe(400);
      const { id, error } = JSON.parse(answer.text) as { id: unknown; error: RpcError };
      expect(id).toBeNull();
      expect(error.code).toBe(-32600);
      expect(error.data).toMatchObject({ limit: 'limits.message_max_keys', max: 20_000 });
      expect(Buffer.byteLength(answer.text)).toBeLessThan(SMALL_ANSWER_BYTES);
    }
    expect(await refusals('message_max_keys')).toBe(before + 3);
  });

  it('refuses 15,000 unknown keys (under limits.message_max_keys) with -32602 naming limits.argument_max_keys', async () => {
    const before = await refusals('argument_max_keys');
    const answer = await whileProbingHealth(
      post(toolCall('flood', 'fx_counted', unknownKeys(15_000))),
    );
    const error = errorOf(answer, 'flood');
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('limits.argument_max_keys (10000)');
    expect(error.data).toMatchObject({ limit: 'limits.argument_max_keys', max: 10_000 });
    expect(Buffer.byteLength(answer.text)).toBeLessThan(SMALL_ANSWER_BYTES);
    expect(await refusals('argument_max_keys')).toBe(before + 1);
  });

  it.each<[string, string, unknown]>([
    [
      '15,000 keys spread over nested objects',
      'argument_max_keys',
      { a: unknownKeys(7_500), b: { c: unknownKeys(7_500) } },
    ],
    // Deeper than limits.message_max_depth (64) would be refused before parsing.
    ['arguments nested 40 deep', 'argument_max_depth', { owner: deep(40) }],
    ['a 3 MiB string', 'argument_max_bytes', { name: 'x'.repeat(3 * 1024 * 1024) }],
    [
      'an array of 90,000 large numbers',
      'argument_max_bytes',
      { tags: new Array(90_000).fill(123456789012) },
    ],
  ])('refuses %s with -32602 naming limits.%s', async (_title, limit, args) => {
    const answer = await whileProbingHealth(post(toolCall('shape', 'fx_counted', args)));
    const error = errorOf(answer, 'shape');
    expect(error.code).toBe(-32602);
    expect(error.data).toMatchObject({ limit: `limits.${limit}` });
    expect(Buffer.byteLength(answer.text)).toBeLessThan(SMALL_ANSWER_BYTES);
  });

  it('answers 9,000 unknown keys (under the limits) with a capped list of problems', async () => {
    const args = {
      name: 'abc',
      count: 1,
      mode: 'fast',
      owner: { id: 'o' },
      tags: [],
      ...unknownKeys(9_000),
    };
    const answer = await whileProbingHealth(post(toolCall('many', 'fx_counted', args)));
    const error = errorOf(answer, 'many');
    expect(error.code).toBe(-32602);
    const errors = error.data?.errors as Array<{ field: string; problems: string[] }>;
    expect(errors).toHaveLength(20);
    expect(errors[0]).toEqual({ field: 'k0', problems: ['property k0 should not exist'] });
    expect(error.data?.omitted).toBe(8_980);
    expect(error.message).toMatch(/\(and 8,980 more\)$/);
    expect(Buffer.byteLength(answer.text)).toBeLessThan(SMALL_ANSWER_BYTES);
  });

  it('answers 9,000 unknown keys inside a nested DTO the same way (linear validation)', async () => {
    const args = {
      name: 'abc',
      count: 1,
      mode: 'fast',
      owner: { id: 'o', ...unknownKeys(9_000) },
      tags: [],
    };
    const answer = await whileProbingHealth(post(toolCall('nested', 'fx_counted', args)));
    const error = errorOf(answer, 'nested');
    expect(error.code).toBe(-32602);
    const errors = error.data?.errors as Array<{ field: string; problems: string[] }>;
    expect(errors[0]).toEqual({ field: 'owner.k0', problems: ['property k0 should not exist'] });
    expect(error.data?.omitted).toBe(8_980);
    expect(Buffer.byteLength(answer.text)).toBeLessThan(SMALL_ANSWER_BYTES);
  });

  it('ledgers the refused tools/call like any invalid-params answer, without its arguments', async () => {
    await post(toolCall('ledgered', 'fx_counted', unknownKeys(15_000)));
    const db = openSettledLedger(ledgerPath);
    try {
      const row = db
        .prepare(
          "SELECT target, outcome, error_code, arguments FROM ledger WHERE request_id = 's:ledgered'",
        )
        .get() as Record<string, unknown> | undefined;
      expect(row).toMatchObject({
        target: 'fx_counted',
        error_code: -32602,
        arguments: JSON.stringify('[not recorded: over limits.argument_max_keys]'),
      });
    } finally {
      db.close();
    }
  });

  it('refuses prompts/get and completion/complete arguments over the limits too', async () => {
    const before = await refusals('argument_max_keys');
    const prompt = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'prompt',
        method: 'prompts/get',
        params: { name: 'fx_greet', arguments: unknownKeys(15_000) },
      }),
    );
    expect(errorOf(prompt, 'prompt')).toMatchObject({
      code: -32602,
      data: { limit: 'limits.argument_max_keys' },
    });
    const completion = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'complete',
        method: 'completion/complete',
        params: {
          ref: { type: 'ref/prompt', name: 'fx_greet' },
          argument: { name: 'style', value: '' },
          context: { arguments: unknownKeys(15_000) },
        },
      }),
    );
    expect(errorOf(completion, 'complete')).toMatchObject({
      code: -32602,
      data: { limit: 'limits.argument_max_keys' },
    });
    expect(await refusals('argument_max_keys')).toBe(before + 2);
  });

  it('still serves ordinary calls afterwards', async () => {
    const answer = await post(toolCall('ok', 'fx_add', { a: 1, b: 2 }));
    const body = JSON.parse(answer.text) as { result: { structuredContent: unknown } };
    expect(body.result.structuredContent).toEqual({ sum: 3 });
    expect(gateway.child.exitCode).toBeNull();
  });
});

describe('argument freeze (issue #21, finding 2) over stdio', () => {
  afterAll(() => killAllGateways(), 30_000);

  it('refuses 15,000 unknown keys naming the limit, then answers ping', async () => {
    const gateway = await spawnTracked({ fixtures: true });
    await gateway.initialize();
    gateway.send(toolCall('flood', 'fx_counted', unknownKeys(15_000)));
    gateway.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
    const refused = await gateway.waitFor((m) => m.id === 'flood', 20_000);
    expect(refused.error).toMatchObject({
      code: -32602,
      data: { limit: 'limits.argument_max_keys', max: 10_000 },
    });
    expect(await gateway.waitFor((m) => m.id === 'after', 20_000)).toMatchObject({ result: {} });
    const line = gateway.stdoutLines.find((text) => text.includes('"flood"'))!;
    expect(Buffer.byteLength(line)).toBeLessThan(SMALL_ANSWER_BYTES);
    await gateway.kill();
  });
});
