import { getToken } from '@willsoto/nestjs-prometheus';
import type { PassThrough } from 'node:stream';
import type { Counter } from 'prom-client';
import { StdioApp, startStdioApp } from '../../../test/support/stdio-app';
import { UNRESOLVED_METHOD } from '../../observability/mcp.metrics';
import { MCP_REQUESTS_TOTAL } from '../../observability/metrics.constants';

const MAX_LINE_BYTES = 1024;

/**
 * Every stdio line answered before any method ran counts in
 * mcp_requests_total as `(rejected)`, whatever refused it: the parser (not
 * JSON) or the transport itself (a line over stdio.max_line_bytes).
 */
describe('StdioTransport: refused lines in mcp_requests_total', () => {
  let gateway: StdioApp;
  let input: PassThrough;
  let output: PassThrough;
  let requests: Counter<'method' | 'outcome'>;

  /** Resolves with the next answer written to stdout. */
  function nextAnswer(): Promise<{ id: unknown; error?: { code: number } }> {
    return new Promise((resolve) =>
      output.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString('utf8')))),
    );
  }

  async function rejected(): Promise<number> {
    const { values } = await requests.get();
    const row = values.find(
      (v) => v.labels.method === UNRESOLVED_METHOD && v.labels.outcome === 'protocol_error',
    );
    return row?.value ?? 0;
  }

  beforeAll(async () => {
    gateway = await startStdioApp({ stdio: { max_line_bytes: MAX_LINE_BYTES } });
    ({ input, output } = gateway);
    requests = gateway.app.get(getToken(MCP_REQUESTS_TOTAL));
  });

  afterAll(() => gateway?.close());

  it('counts a line that is not JSON', async () => {
    const before = await rejected();
    const answer = nextAnswer();
    input.write('{not json\n');
    expect(await answer).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await rejected()).toBe(before + 1);
  });

  it('counts a line over stdio.max_line_bytes, once', async () => {
    const before = await rejected();
    const answer = nextAnswer();
    input.write(
      `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(MAX_LINE_BYTES * 3)}"}}\n`,
    );
    expect(await answer).toMatchObject({ id: null, error: { code: -32700 } });
    const pong = nextAnswer();
    input.write('{"jsonrpc":"2.0","id":"after","method":"ping"}\n');
    expect(await pong).toMatchObject({ id: 'after', result: {} });
    expect(await rejected()).toBe(before + 1);
  });
});
