/**
 * The stdio transport of a spawned fixture gateway: stdout purity, framing
 * (partial lines, CRLF, oversize lines), concurrency, and shutdown on EOF and
 * SIGTERM with calls in flight.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { BOOT_TIMEOUT_MS, Json, waitUntil } from '../support/rpc-adapter';
import { StdioGatewayProcess } from '../support/stdio-process';
import { killAllGateways, spawnTracked } from '../support/tracked-gateways';

const MAX_LINE_BYTES = 2048;

function isJsonRpcMessage(message: Json): boolean {
  if (message.jsonrpc !== '2.0') return false;
  if ('method' in message) return typeof message.method === 'string';
  if (!('id' in message)) return false;
  return 'result' in message !== 'error' in message;
}

/** Writes raw text (no newline added). */
function write(gateway: StdioGatewayProcess, text: string | Buffer): void {
  gateway.child.stdin.write(text);
}

async function initialize(gateway: StdioGatewayProcess): Promise<void> {
  const response = await gateway.initialize('2025-06-18');
  expect(response).toMatchObject({ result: { protocolVersion: '2025-06-18' } });
}

afterAll(killAllGateways);

describe('stdio transport: one session with good and bad input', () => {
  let gateway: StdioGatewayProcess;

  beforeAll(async () => {
    gateway = await spawnTracked({
      fixtures: true,
      env: {
        MCP_SERVER_LOGGING_LEVEL: 'debug',
        MCP_SERVER_STDIO_MAX_LINE_BYTES: String(MAX_LINE_BYTES),
      },
    });
    await initialize(gateway);
  }, BOOT_TIMEOUT_MS);

  afterAll(async () => {
    await gateway?.kill();
  });

  it('reports the default client id stdio-client to handlers', async () => {
    const response = await gateway.request('fixture/echo', {}, 'who');
    expect(response).toMatchObject({
      result: { clientId: 'stdio-client', transport: 'stdio' },
    });
  });

  it('answers a message written in 3 chunks with pauses exactly once', async () => {
    const line = JSON.stringify({
      jsonrpc: '2.0',
      id: 'chunked',
      method: 'fixture/echo',
      params: { text: 'ü'.repeat(40) },
    });
    // Split inside a multi-byte character too: the transport works on bytes.
    const bytes = Buffer.from(`${line}\n`);
    const cut1 = bytes.indexOf(Buffer.from('ü')) + 1;
    const cut2 = Math.floor(bytes.length * 0.7);
    const before = gateway.stdoutLines.length;
    write(gateway, bytes.subarray(0, cut1));
    await delay(100);
    write(gateway, bytes.subarray(cut1, cut2));
    await delay(100);
    expect(gateway.stdoutLines.length).toBe(before);
    write(gateway, bytes.subarray(cut2));
    const response = await gateway.waitFor((m) => m.id === 'chunked');
    expect(response).toMatchObject({ result: { params: { text: 'ü'.repeat(40) } } });
    await gateway.request('ping', undefined, 'after-chunked');
    expect(gateway.messages.filter((m) => m.id === 'chunked')).toHaveLength(1);
  });

  it('accepts CRLF line endings', async () => {
    write(gateway, '{"jsonrpc":"2.0","id":"crlf-1","method":"ping"}\r\n');
    write(gateway, '{"jsonrpc":"2.0","id":"crlf-2","method":"fixture/echo","params":{"a":1}}\r\n');
    expect(await gateway.waitFor((m) => m.id === 'crlf-1')).toEqual({
      jsonrpc: '2.0',
      id: 'crlf-1',
      result: {},
    });
    expect(await gateway.waitFor((m) => m.id === 'crlf-2')).toMatchObject({
      result: { params: { a: 1 } },
    });
  });

  it('ignores blank lines and answers several messages in one chunk', async () => {
    const before = gateway.stdoutLines.length;
    write(
      gateway,
      '\n  \r\n{"jsonrpc":"2.0","id":"m1","method":"ping"}\n{"jsonrpc":"2.0","id":"m2","method":"ping"}\n',
    );
    await gateway.waitFor((m) => m.id === 'm1');
    await gateway.waitFor((m) => m.id === 'm2');
    await gateway.request('ping', undefined, 'after-blank');
    expect(gateway.stdoutLines.length - before).toBe(3);
  });

  it('answers an oversize line with one -32700 (id null) and keeps serving', async () => {
    const before = gateway.stdoutLines.length;
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 'huge',
      method: 'fixture/echo',
      params: { pad: 'x'.repeat(MAX_LINE_BYTES * 3) },
    });
    write(gateway, `${huge}\n`);
    const pong = await gateway.request('ping', undefined, 'after-huge');
    expect(pong).toEqual({ jsonrpc: '2.0', id: 'after-huge', result: {} });
    const answers = gateway.messages.slice(before);
    const parseErrors = answers.filter((m) => (m.error as Json | undefined)?.code === -32700);
    expect(parseErrors).toHaveLength(1);
    expect(parseErrors[0]).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { message: expect.stringContaining(String(MAX_LINE_BYTES)) },
    });
    expect(answers.some((m) => m.id === 'huge')).toBe(false);
  });

  it('answers a line without newline that grows past the limit, once, without waiting for its end', async () => {
    const before = gateway.stdoutLines.length;
    const start = '{"jsonrpc":"2.0","id":"endless","method":"fixture/echo","params":{"pad":"';
    write(gateway, start);
    for (let i = 0; i < 6; i++) {
      write(gateway, 'y'.repeat(MAX_LINE_BYTES));
      await delay(20);
    }
    // No newline yet: the peer still learns at once why it will get no answer.
    await waitUntil(
      () => gateway.stdoutLines.length > before,
      5_000,
      () => 'no -32700 yet',
    );
    expect(gateway.messages.slice(before)).toEqual([
      expect.objectContaining({
        jsonrpc: '2.0',
        id: null,
        error: expect.objectContaining({ code: -32700 }),
      }),
    ]);
    // More of the same line, then its end: still only one error for it.
    write(gateway, 'y'.repeat(MAX_LINE_BYTES));
    write(gateway, '"}}\n');
    const pong = await gateway.request('ping', undefined, 'after-endless');
    expect(pong).toMatchObject({ result: {} });
    const answers = gateway.messages.slice(before);
    expect(answers.filter((m) => m.id === null)).toHaveLength(1);
    expect(answers.some((m) => m.id === 'endless')).toBe(false);
  });

  it('accepts a line of exactly the limit', async () => {
    const head = '{"jsonrpc":"2.0","id":"edge","method":"fixture/echo","params":{"pad":"';
    const tail = '"}}';
    const pad = 'z'.repeat(MAX_LINE_BYTES - head.length - tail.length);
    write(gateway, `${head}${pad}${tail}\n`);
    const response = await gateway.waitFor((m) => m.id === 'edge');
    expect(response).toMatchObject({ result: { params: { pad } } });
  });

  it('runs requests concurrently: a ping overtakes a slow call', async () => {
    const order: unknown[] = [];
    const slow = gateway
      .request('fixture/sleep', { ms: 1500 }, 'slow')
      .then((m) => order.push(m.id));
    await delay(50);
    const fast = gateway.request('ping', undefined, 'fast').then((m) => order.push(m.id));
    await Promise.all([slow, fast]);
    expect(order).toEqual(['fast', 'slow']);
    expect(gateway.messages.find((m) => m.id === 'slow')).toMatchObject({
      result: { slept: 1500 },
    });
  });

  it('keeps stdout pure JSON-RPC and stderr JSON logs, with debug logging and bad input', async () => {
    // A last round of bad and odd input, on top of everything above.
    write(gateway, 'not json at all\n');
    write(gateway, Buffer.from([0xff, 0xfe, 0x0a]));
    write(gateway, '{"jsonrpc":"2.0","id":"srv-1","result":{}}\n');
    write(gateway, '{"jsonrpc":"2.0","method":"notifications/unknown"}\n');
    write(gateway, '[{"jsonrpc":"2.0","id":"in-batch","method":"ping"}]\n');
    await gateway.request('fixture/notify', { count: 2 }, 'notify');
    await gateway.request('fixture/raise', { plain: true }, 'plain');
    await gateway.request('ping', undefined, 'last');

    expect(gateway.stdoutLines.length).toBeGreaterThan(15);
    for (const line of gateway.stdoutLines) {
      let message: Json;
      try {
        message = JSON.parse(line) as Json;
      } catch {
        throw new Error(`stdout line is not JSON: ${line.slice(0, 200)}`);
      }
      if (!isJsonRpcMessage(message)) throw new Error(`not a JSON-RPC message: ${line}`);
    }
    // fixture/notify's progress notifications ride stdout as messages too.
    expect(gateway.messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(2);

    const plain = gateway.messages.find((m) => m.id === 'plain');
    const incidentId = ((plain?.error as Json).data as Json).incident_id;
    expect(incidentId).toEqual(expect.any(String));
    // Log lines are written asynchronously: one may land just after the answer it explains.
    await waitUntil(
      () => gateway.stderr.includes(String(incidentId)),
      5_000,
      () => `no log line with incident ${String(incidentId)}`,
    );

    const stderrLines = gateway.stderr.split('\n').filter((line) => line.trim() !== '');
    const logs = stderrLines.map((line) => {
      try {
        return JSON.parse(line) as Json;
      } catch {
        throw new Error(`stderr line is not JSON: ${line.slice(0, 200)}`);
      }
    });
    for (const log of logs) {
      expect(log).toEqual(
        expect.objectContaining({ level: expect.any(Number), msg: expect.any(String) }),
      );
    }
    // Debug level is on (pino: 20), and the unexpected error was logged with its incident id.
    expect(logs.some((log) => log.level === 20)).toBe(true);
    // The detail the client never saw is in the log, under the same incident id.
    expect(logs).toContainEqual(
      expect.objectContaining({
        msg: 'unhandled error',
        incidentId,
        method: 'fixture/raise',
        error: 'secret internal detail',
      }),
    );
  });
});

describe('stdio transport: client id and shutdown', () => {
  // Booted together: each is a fresh process, and booting them in parallel saves seconds.
  let onEof: StdioGatewayProcess;
  /** Also the one that checks MCP_CLIENT_ID, before it is stopped. */
  let onTerm: StdioGatewayProcess;
  let onEofLong: StdioGatewayProcess;

  beforeAll(async () => {
    [onEof, onTerm, onEofLong] = await Promise.all([
      spawnTracked({ fixtures: true }),
      spawnTracked({ fixtures: true, env: { MCP_CLIENT_ID: 'ide-42' } }),
      spawnTracked({ fixtures: true }),
    ]);
    await Promise.all([onEof, onTerm, onEofLong].map(initialize));
  }, 2 * BOOT_TIMEOUT_MS);

  /** Sends a request and checks that it is still running. */
  async function inFlight(gateway: StdioGatewayProcess, id: string, ms: number): Promise<void> {
    gateway.send({ jsonrpc: '2.0', id, method: 'fixture/sleep', params: { ms } });
    await delay(100);
    expect(gateway.messages.some((m) => m.id === id)).toBe(false);
  }

  it('passes MCP_CLIENT_ID to handlers', async () => {
    const response = await onTerm.request('fixture/echo', {}, 'who');
    expect(response).toMatchObject({ result: { clientId: 'ide-42', transport: 'stdio' } });
  });

  it('on EOF answers the in-flight call, then exits 0 within 5 s', async () => {
    await inFlight(onEof, 'eof-sleep', 1000);
    const exit = await onEof.endInput();
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.ms).toBeLessThan(5000);
    // It waited for the call rather than cutting it off.
    expect(exit.ms).toBeGreaterThanOrEqual(700);
    expect(onEof.messages.find((m) => m.id === 'eof-sleep')).toEqual({
      jsonrpc: '2.0',
      id: 'eof-sleep',
      result: { slept: 1000 },
    });
  });

  it('on SIGTERM answers the in-flight call, then exits 0 within 5 s', async () => {
    await inFlight(onTerm, 'term-sleep', 1000);
    const started = Date.now();
    onTerm.child.kill('SIGTERM');
    const exit = await onTerm.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(onTerm.messages.find((m) => m.id === 'term-sleep')).toEqual({
      jsonrpc: '2.0',
      id: 'term-sleep',
      result: { slept: 1000 },
    });
  });

  it('on EOF with a 60 s call exits within 5 s and answers that call with an error', async () => {
    await inFlight(onEofLong, 'long-sleep', 60_000);
    const exit = await onEofLong.endInput();
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.ms).toBeLessThan(5000);
    const answer = onEofLong.messages.find((m) => m.id === 'long-sleep');
    expect(answer).toMatchObject({
      jsonrpc: '2.0',
      id: 'long-sleep',
      error: {
        code: -32603,
        message: expect.stringContaining('shutting down'),
        data: { retryable: true },
      },
    });
    expect(answer).not.toHaveProperty('result');
  });
});
