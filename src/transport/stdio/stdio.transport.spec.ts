import { PassThrough } from 'node:stream';
import { StdioApp, startStdioApp } from '../../../test/support/stdio-app';
import { GENEROUS_QUOTA } from '../../../test/support/test-defaults';

const CHECK_STOCK = { name: 'inventory_check_stock', arguments: { skus: ['TENT-2P-UL'] } };

/**
 * The stdio transport in the gateway's own graph (demo pack, governance and
 * the SQLite ledger on), fed through in-process streams so that the test
 * can see when, relative to the event loop, each answer is written.
 */
describe('StdioTransport: when answers are written', () => {
  let gateway: StdioApp;
  let input: PassThrough;
  let chunks: string[];
  let nextId = 1;

  const send = (...messages: unknown[]) =>
    input.write(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
  const request = (method: string, params: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params,
  });

  /** Resolves with the next chunk written to stdout. */
  function nextWrite(output: PassThrough): Promise<{ chunk: string }> {
    return new Promise((resolve) =>
      output.once('data', (chunk: Buffer) => resolve({ chunk: chunk.toString('utf8') })),
    );
  }

  let output: PassThrough;

  beforeAll(async () => {
    gateway = await startStdioApp({ governance: { default_quota: GENEROUS_QUOTA } });
    ({ input, output } = gateway);
    chunks = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
    const initialized = nextWrite(output);
    send(
      request('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'spec', version: '1' },
      }),
    );
    await initialized;
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // Warm-up: the first call of a client loads its month's spend from the ledger.
    const warm = nextWrite(output);
    send(request('tools/call', CHECK_STOCK));
    await warm;
  });

  afterAll(() => gateway?.close());

  it('writes the answer of a lone call on its own', async () => {
    const written = nextWrite(output);
    send(request('tools/call', CHECK_STOCK));
    const { chunk } = await written;

    const answer = JSON.parse(chunk) as { id: number; result?: { isError?: boolean } };
    expect(answer.id).toBe(nextId - 1);
    expect(answer.result?.isError).toBeFalsy();
  });

  it('writes the answers of calls in flight together in one write', async () => {
    const before = chunks.length;
    const written = nextWrite(output);
    const calls = [request('tools/call', CHECK_STOCK), request('tools/call', CHECK_STOCK)];
    send(...calls);
    const { chunk } = await written;

    const lines = chunk.trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id).sort()).toEqual(
      calls.map((call) => call.id),
    );
    expect(chunks).toHaveLength(before + 1);
  });
});
