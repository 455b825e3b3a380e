/**
 * A body near the 4 MiB limit made of keys outside `arguments`, or of nested
 * or wide arrays, cost up to seconds of event loop in JSON.parse alone. Every
 * HTTP body and stdio line is now bounded in depth, keys and array elements
 * (limits.message_*) by one pass over its text, before anything is parsed:
 * the answer is one -32600 (id null) naming the limit.
 */
import { HttpGatewayChild } from '../support/http-child';
import { killAllGateways, spawnTracked } from '../support/tracked-gateways';
import { httpRequest } from '../robustness/support/limits-client';
import { refusals } from './support/limit-refusals';

const FOUR_MIB = 4 * 1024 * 1024;
const ONE_MIB = 1024 * 1024;

/** About `bytes` of distinct keys, in a params member next to (not inside) `arguments`. */
function keysOutsideArguments(bytes: number): string {
  const keys: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const key = `"k${i}":0`;
    keys.push(key);
    size += key.length + 1;
  }
  return `{"jsonrpc":"2.0","id":"keys","method":"tools/call","params":{"name":"fx_add","arguments":{"a":1,"b":2},"_meta":{${keys.join(',')}}}}`;
}

const half = ONE_MIB / 2;
const ATTACKS: Array<[string, string, string]> = [
  ['4 MiB of keys outside arguments', 'message_max_keys', keysOutsideArguments(FOUR_MIB - 1024)],
  [
    '1 MiB of nested arrays',
    'message_max_depth',
    `{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"x":${'['.repeat(half)}${']'.repeat(half)}}}`,
  ],
  [
    'a wide array of 1.5 million zeros',
    'message_max_array_elements',
    `{"jsonrpc":"2.0","id":"wide","method":"ping","params":{"x":[${'0,'.repeat(1_500_000)}0]}}`,
  ],
];

const MAX: Record<string, number> = {
  message_max_keys: 20_000,
  message_max_depth: 64,
  message_max_array_elements: 100_000,
};

describe('message shape limits over HTTP', () => {
  let gateway: HttpGatewayChild;

  beforeAll(async () => {
    gateway = await HttpGatewayChild.start({
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: '0',
    });
  }, 120_000);

  afterAll(() => gateway?.stop(), 30_000);

  it.each(ATTACKS)('refuses %s before parsing, naming limits.%s', async (_title, limit, body) => {
    expect(Buffer.byteLength(body)).toBeLessThan(FOUR_MIB);
    const before = await refusals(gateway.baseUrl, limit);
    const answer = await httpRequest(`${gateway.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body,
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: expect.stringContaining(`limits.${limit} (${MAX[limit]})`),
        data: expect.objectContaining({ limit: `limits.${limit}`, max: MAX[limit] }),
      },
    });
    expect(await refusals(gateway.baseUrl, limit)).toBe(before + 1);
    expect((await httpRequest(`${gateway.baseUrl}/health`)).status).toBe(200);
  });
});

describe('message shape limits over stdio', () => {
  afterAll(() => killAllGateways(), 30_000);

  it('refuses each attack line naming its limit, then answers ping', async () => {
    const gateway = await spawnTracked({ fixtures: true });
    await gateway.initialize();
    for (const [, limit, line] of ATTACKS) {
      gateway.send(line);
      const refused = await gateway.waitFor(
        (m) =>
          (m.error as { data?: { limit?: string } } | undefined)?.data?.limit === `limits.${limit}`,
        20_000,
      );
      expect(refused).toMatchObject({
        id: null,
        error: { code: -32600, data: { limit: `limits.${limit}`, max: MAX[limit] } },
      });
    }
    expect(await gateway.request('ping', undefined, 'after')).toMatchObject({ result: {} });
    await gateway.kill();
  });
});
