/**
 * Resource limits: huge bodies and lines, deep nesting, a thousand concurrent
 * connections, clients that trickle or stop reading. The gateways run as
 * child processes so that their memory (VmRSS from /proc) is theirs alone.
 */
import { Agent, request } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { HttpGatewayChild } from '../support/http-child';
import { StdioGatewayProcess } from '../support/stdio-process';
import { tempLedgerPath } from '../support/test-defaults';
import { killAllGateways, spawnTracked } from '../support/tracked-gateways';
import { report } from './support/fuzz-runner';
import { deleteSession, openSession, postMcp } from '../support/mcp-fetch';
import { envelopeProblems, Json } from './support/jsonrpc-oracle';
import {
  fdLimit,
  httpRequest,
  mib,
  openFds,
  openStalledSse,
  RssSampler,
  rssBytes,
  streamUpload,
  uploadIgnoringAnswer,
} from './support/limits-client';

const MiB = 1024 * 1024;
/** How much a gateway's resident memory may grow while a limit is being tested. */
const RSS_BOUND = 50 * MiB;
const BODY_LIMIT = 4 * MiB;
const LINE_LIMIT = 4 * MiB;
const DEPTH = 10_000;

const GATEWAY_ENV = {
  MCP_SERVER_HTTP_HOST: '127.0.0.1',
  MCP_SERVER_HTTP_PORT: '0',
  MCP_SERVER_LEDGER_ENABLED: 'false',
  // The task store lives beside the ledger's path: a temp one, not ./data shared with other suites.
  MCP_SERVER_LEDGER_SQLITE_PATH: tempLedgerPath(),
  // The 1,000 concurrent connections below come from one address, with the suite's own beside them.
  MCP_SERVER_LIMITS_CONNECTIONS_PER_ADDRESS: '2000',
};

const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** Deep frames and what each must get: a clear error (or an answer), never a crash. */
/** Refused before parsing, whatever the method or validity: -32600, id null, naming limits.message_max_depth. */
const DEEP_FRAMES: Array<{ title: string; frame: string }> = [
  { title: 'a batch holding 10,000 nested arrays', frame: deepArray(DEPTH) },
  {
    title: 'ping with params nested 10,000 deep',
    frame: `{"jsonrpc":"2.0","id":"deep-ping","method":"ping","params":{"x":${deepObject(DEPTH)}}}`,
  },
  {
    title: 'logging/setLevel with a level nested 10,000 deep',
    frame: `{"jsonrpc":"2.0","id":"deep-level","method":"logging/setLevel","params":{"level":${deepObject(DEPTH)}}}`,
  },
  {
    title: 'fixture/echo of params nested 10,000 deep',
    frame: `{"jsonrpc":"2.0","id":"deep-echo","method":"fixture/echo","params":{"x":${deepArray(DEPTH)}}}`,
  },
  { title: 'an object nested 10,000 deep (no jsonrpc member)', frame: deepObject(DEPTH) },
  { title: '10,000 opening brackets and no closing ones', frame: '['.repeat(DEPTH) },
];

/** The refusal of a frame nested past limits.message_max_depth. */
function expectTooDeep(body: unknown): void {
  const error = expectError(body, null, -32600);
  expect(error.data).toMatchObject({ limit: 'limits.message_max_depth', max: 64 });
}

function expectError(body: unknown, id: string | null, code: number): Json {
  const response = (Array.isArray(body) ? body[0] : body) as Json;
  expect(envelopeProblems(response)).toEqual([]);
  expect(response).toMatchObject({ id, error: { code } });
  return response.error as Json;
}

describe('limits over Streamable HTTP', () => {
  let gateway: HttpGatewayChild;
  let sessionId: string;
  const version = '2025-03-26';
  const headers = () => ({ 'mcp-session-id': sessionId, 'mcp-protocol-version': version });

  beforeAll(async () => {
    gateway = await HttpGatewayChild.start(GATEWAY_ENV);
    sessionId = await openSession(gateway.baseUrl, version);
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
  }, 30_000);

  async function expectHealthy(): Promise<void> {
    expect(gateway.child.exitCode).toBeNull();
    const health = await httpRequest(`${gateway.baseUrl}/health`, { timeoutMs: 10_000 });
    expect(health.status).toBe(200);
    const ping = await postMcp(
      gateway.baseUrl,
      Buffer.from('{"jsonrpc":"2.0","id":"alive","method":"ping"}'),
      headers(),
    );
    expect(JSON.parse(ping.text)).toEqual({ jsonrpc: '2.0', id: 'alive', result: {} });
  }

  it.each([
    ['chunked, without Content-Length', false],
    ['with Content-Length: 104857600', true],
  ])(
    'refuses a streamed 100 MiB body (%s) with 413 and a JSON-RPC error, without buffering it',
    async (_how, declareLength) => {
      const rss = new RssSampler(gateway.child.pid!);
      const upload = await streamUpload(
        `${gateway.baseUrl}/mcp`,
        100 * MiB,
        declareLength,
        headers(),
      );
      await delay(200);
      const memory = rss.stop();
      report(
        `100 MiB upload (${declareLength ? 'Content-Length' : 'chunked'}): ${upload.status} after ${upload.ms} ms, ${mib(upload.sentBeforeResponse)} sent before the answer, ${mib(upload.sent)} in all; gateway RSS ${mib(memory.before)} -> peak ${mib(memory.peak)} (+${mib(memory.peakGrowth)})`,
      );
      expect(upload.status).toBe(413);
      const error = expectError(JSON.parse(upload.text), null, -32600);
      expect(error.message).toContain(`body_limit_bytes (${BODY_LIMIT} bytes)`);
      expect(error.data).toMatchObject({ http_status: 413 });
      // Answered at the limit, not after 100 MiB.
      expect(upload.ms).toBeLessThan(20_000);
      expect(upload.sentBeforeResponse).toBeLessThan(50 * MiB);
      expect(memory.peakGrowth).toBeLessThan(RSS_BOUND);
      await expectHealthy();
    },
    90_000,
  );

  it('cuts off a client that ignores the 413 and goes on sending', async () => {
    // 1 MiB every 20 ms (about 50 MiB/s) for at most 20 s.
    const result = await uploadIgnoringAnswer(`${gateway.baseUrl}/mcp`, headers(), MiB, 20, 20_000);
    report(
      `client ignoring the 413: cut off ${result.cutAfterMs} ms after the answer, ${mib(result.sent)} sent in all`,
    );
    expect(result.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    // Not at once (the client could lose the answer), but soon.
    expect(result.cutAfterMs).toBeGreaterThanOrEqual(1_000);
    expect(result.cutAfterMs).toBeLessThan(10_000);
    await expectHealthy();
  }, 60_000);

  it.each(DEEP_FRAMES)('refuses $title before parsing and stays up', async ({ frame }) => {
    const answer = await postMcp(gateway.baseUrl, Buffer.from(frame), headers());
    expect(answer.status).toBe(400);
    expectTooDeep(JSON.parse(answer.text));
    await expectHealthy();
  });

  it('refuses initialize with params nested 10,000 deep, and opens no session', async () => {
    const frame = `{"jsonrpc":"2.0","id":"deep-init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":${deepObject(DEPTH)},"clientInfo":{"name":"x","version":"1"}}}`;
    // Without a session: an invalid request is no initialize, so the session header is missing (400).
    const alone = await postMcp(gateway.baseUrl, Buffer.from(frame));
    expect(alone.status).toBe(400);
    expect(alone.sessionId).toBeNull();
    expectError(JSON.parse(alone.text), null, -32600);
    // On a session too: refused before parsing, naming the limit.
    const onSession = await postMcp(gateway.baseUrl, Buffer.from(frame), headers());
    expect(onSession.status).toBe(400);
    expectTooDeep(JSON.parse(onSession.text));
    expect(gateway.stderr).not.toContain('Maximum call stack size exceeded');
  });

  it('answers a body trickling in at 1 byte per 100 ms, and serves others meanwhile', async () => {
    const body = Buffer.from('{"jsonrpc":"2.0","id":"slow","method":"ping"}');
    const slow = new Promise<{ status: number; text: string; ms: number }>((resolve, reject) => {
      const started = Date.now();
      const url = new URL('/mcp', gateway.baseUrl);
      // A raw request so that each byte goes out on its own.
      {
        const req = request(url, {
          method: 'POST',
          agent: false,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'content-length': String(body.length),
            ...headers(),
          },
        });
        req.once('error', reject);
        req.once('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.once('end', () =>
            resolve({ status: res.statusCode ?? 0, text, ms: Date.now() - started }),
          );
        });
        void (async () => {
          for (const byte of body) {
            req.write(Buffer.from([byte]));
            await delay(100);
          }
          req.end();
        })();
      }
    });
    // Meanwhile: other clients on their own session, one ping every 200 ms.
    const other = await openSession(gateway.baseUrl, version);
    const latencies: number[] = [];
    let finished = false;
    const answered = slow.finally(() => (finished = true));
    for (let i = 0; i < 100 && !finished; i++) {
      const started = Date.now();
      const ping = await postMcp(
        gateway.baseUrl,
        Buffer.from(`{"jsonrpc":"2.0","id":${i},"method":"ping"}`),
        { 'mcp-session-id': other, 'mcp-protocol-version': version },
      );
      expect(JSON.parse(ping.text)).toEqual({ jsonrpc: '2.0', id: i, result: {} });
      latencies.push(Date.now() - started);
      await delay(200);
    }
    const result = await answered;
    report(
      `trickled POST (${body.length} bytes at 1 byte/100 ms): ${result.status} after ${result.ms} ms; ${latencies.length} other pings meanwhile, slowest ${Math.max(...latencies)} ms`,
    );
    expect(result.status).toBe(200);
    expect(JSON.parse(result.text)).toEqual({ jsonrpc: '2.0', id: 'slow', result: {} });
    expect(result.ms).toBeGreaterThanOrEqual(body.length * 100 - 500);
    expect(latencies.length).toBeGreaterThanOrEqual(10);
    expect(Math.max(...latencies)).toBeLessThan(5_000);
    await deleteSession(gateway.baseUrl, other);
  }, 60_000);

  it('cuts an SSE stream whose client stopped reading instead of buffering without bound', async () => {
    const flooded = await openSession(gateway.baseUrl, version);
    const floodedHeaders = { 'mcp-session-id': flooded, 'mcp-protocol-version': version };
    const stalled = await openStalledSse(gateway.baseUrl, floodedHeaders);
    const rss = new RssSampler(gateway.child.pid!);
    // Notifications with a 256 KiB progress token, sent to the session's GET stream
    // (the POSTs do not accept SSE): 4 x 100 of them, about 100 MiB in all.
    const token = 'x'.repeat(256 * 1024);
    const notify = (i: number) =>
      postMcp(
        gateway.baseUrl,
        Buffer.from(
          JSON.stringify({
            jsonrpc: '2.0',
            id: `flood-${i}`,
            method: 'fixture/notify',
            params: { count: 100, _meta: { progressToken: token } },
          }),
        ),
        { ...floodedHeaders, accept: 'application/json' },
      );
    const started = Date.now();
    const floods = await Promise.all([0, 1, 2, 3].map(notify));
    await delay(500);
    const memory = rss.stop();
    for (const [i, flood] of floods.entries()) {
      expect(flood.status).toBe(200);
      expect(JSON.parse(flood.text)).toMatchObject({ id: `flood-${i}`, result: { sent: 100 } });
    }
    // The stalled stream is gone: the session accepts a new GET stream (no 409).
    const reopened = await new Promise<number>((resolve, reject) => {
      const req = request(`${gateway.baseUrl}/mcp`, {
        agent: false,
        headers: { accept: 'text/event-stream', ...floodedHeaders },
      });
      req.once('error', reject);
      req.once('response', (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.end();
    });
    report(
      `stalled SSE reader flooded with 400 x 256 KiB notifications in ${Date.now() - started} ms: gateway RSS ${mib(memory.before)} -> peak ${mib(memory.peak)} (+${mib(memory.peakGrowth)}), after ${mib(memory.after)}; new GET stream ${reopened}`,
    );
    expect(reopened).toBe(200);
    expect(memory.peakGrowth).toBeLessThan(RSS_BOUND);
    expect(gateway.stderr).toContain('SSE client stopped reading');
    stalled.socket.destroy();
    await stalled.closed;
    await deleteSession(gateway.baseUrl, flooded);
    await expectHealthy();
  }, 90_000);

  it('serves 1,000 concurrent connections each doing initialize + ping (or refuses cleanly)', async () => {
    const pid = gateway.child.pid!;
    const fdsBefore = openFds(pid);
    // A gateway out of file descriptors resets the connections it cannot take (libuv accepts and
    // closes them: "socket hang up", ECONNRESET, with no answer), which is not what this test is
    // about: say so instead. Node raises its soft limit to the hard one, so this is the hard limit.
    const needed = fdsBefore + 1000 + 50;
    if (fdLimit(pid) < needed) {
      throw new Error(
        `the gateway may open ${fdLimit(pid)} file descriptors, this test needs ${needed} (raise ulimit -Hn)`,
      );
    }
    const agent = new Agent({ keepAlive: true, maxSockets: 1000 });
    // How many connections were really open at once, on both ends.
    const connections = { opened: 0, open: 0, peak: 0 };
    const createConnection = agent.createConnection.bind(agent);
    agent.createConnection = (...args: Parameters<typeof createConnection>) => {
      const socket = createConnection(...args);
      connections.opened++;
      connections.peak = Math.max(connections.peak, ++connections.open);
      socket?.once('close', () => connections.open--);
      return socket;
    };
    let peakFds = fdsBefore;
    const fdSampler = setInterval(() => (peakFds = Math.max(peakFds, openFds(pid))), 20);
    const outcomes = { served: 0, refused: 0, retried: 0 };
    const failures: string[] = [];
    const sessions: string[] = [];
    const started = Date.now();
    const post = (body: object, extra: Record<string, string> = {}) =>
      httpRequest(`${gateway.baseUrl}/mcp`, {
        method: 'POST',
        agent,
        timeoutMs: 60_000,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...extra,
        },
        body: JSON.stringify(body),
      });
    const count = <T extends { retried: boolean }>(answer: T): T => {
      if (answer.retried) outcomes.retried++;
      return answer;
    };
    const refusedCleanly = (status: number, text: string) =>
      (status === 429 || status === 503) && envelopeProblems(JSON.parse(text)).length === 0;
    await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        try {
          const init = count(
            await post({
              jsonrpc: '2.0',
              id: i,
              method: 'initialize',
              params: {
                protocolVersion: '2025-11-25',
                capabilities: {},
                clientInfo: { name: `conn-${i}`, version: '1' },
              },
            }),
          );
          if (refusedCleanly(init.status, init.text)) {
            outcomes.refused++;
            return;
          }
          const session = init.headers['mcp-session-id'];
          if (init.status !== 200 || typeof session !== 'string') {
            failures.push(`initialize ${i}: ${init.status} ${init.text.slice(0, 200)}`);
            return;
          }
          sessions.push(session);
          const ping = count(
            await post(
              { jsonrpc: '2.0', id: `ping-${i}`, method: 'ping' },
              { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
            ),
          );
          if (refusedCleanly(ping.status, ping.text)) outcomes.refused++;
          else if (
            ping.status === 200 &&
            ping.text === `{"jsonrpc":"2.0","id":"ping-${i}","result":{}}`
          ) {
            outcomes.served++;
          } else failures.push(`ping ${i}: ${ping.status} ${ping.text.slice(0, 200)}`);
        } catch (err) {
          failures.push(`connection ${i}: ${String(err)}`);
        }
      }),
    );
    const ms = Date.now() - started;
    clearInterval(fdSampler);
    agent.destroy();
    // Every connection closes again on the gateway's side: no socket is left hanging.
    let fdsAfter = openFds(pid);
    for (let i = 0; i < 100 && fdsAfter > fdsBefore + 20; i++) {
      await delay(100);
      fdsAfter = openFds(pid);
    }
    report(
      `1,000 concurrent connections: ${outcomes.served} served, ${outcomes.refused} refused, ${failures.length} failed in ${ms} ms (${outcomes.retried} requests resent after a keep-alive reset); ${connections.opened} connections, ${connections.peak} open at once; gateway fds ${fdsBefore} -> peak ${peakFds} -> ${fdsAfter}; RSS ${mib(rssBytes(pid))}`,
    );
    expect(failures.slice(0, 10)).toEqual([]);
    expect(outcomes.served + outcomes.refused).toBe(1000);
    expect(connections.peak).toBeGreaterThanOrEqual(1000);
    expect(fdsAfter).toBeLessThanOrEqual(fdsBefore + 20);
    await expectHealthy();
    // Clean up the sessions, a few at a time.
    for (let i = 0; i < sessions.length; i += 50) {
      await Promise.all(sessions.slice(i, i + 50).map((s) => deleteSession(gateway.baseUrl, s)));
    }
  }, 150_000);
});

describe('limits over stdio', () => {
  let gateway: StdioGatewayProcess;

  beforeAll(async () => {
    gateway = await spawnTracked({ env: { MCP_SERVER_LEDGER_ENABLED: 'false' } });
    await gateway.initialize('2025-03-26');
  }, 90_000);

  afterAll(async () => {
    if (gateway && gateway.child.exitCode === null) await gateway.endInput();
    await killAllGateways();
  }, 30_000);

  /** Writes `bytes` to stdin in 64 KiB chunks, waiting for the pipe to drain. */
  async function writeAll(bytes: number, fill: number): Promise<void> {
    const chunk = Buffer.alloc(64 * 1024, fill);
    for (let sent = 0; sent < bytes; sent += chunk.length) {
      const part = bytes - sent >= chunk.length ? chunk : chunk.subarray(0, bytes - sent);
      if (!gateway.child.stdin.write(part)) {
        await new Promise((resolve) => gateway.child.stdin.once('drain', resolve));
      }
    }
  }

  it('answers a 10 MiB line with one -32700 naming the limit, then the next line normally', async () => {
    const start = gateway.stdoutLines.length;
    const rss = new RssSampler(gateway.child.pid!);
    // 10 MiB without a newline: the gateway must not wait for its end to say so.
    await writeAll(10 * MiB, 0x78);
    const oversize = await gateway.waitFor((m) => m.id === null, 30_000);
    gateway.send('');
    const ping = await gateway.request('ping', undefined, 'after-10-MiB');
    await delay(200);
    const memory = rss.stop();
    report(
      `10 MiB stdio line: gateway RSS ${mib(memory.before)} -> peak ${mib(memory.peak)} (+${mib(memory.peakGrowth)})`,
    );
    expect(oversize).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const message = (oversize.error as Json).message as string;
    expect(message).toContain('max_line_bytes');
    expect(message).toContain(String(LINE_LIMIT));
    expect(ping).toEqual({ jsonrpc: '2.0', id: 'after-10-MiB', result: {} });
    // Exactly those two lines: one error for the whole line, then the ping.
    expect(gateway.stdoutLines.slice(start).map((line) => JSON.parse(line) as Json)).toEqual([
      oversize,
      ping,
    ]);
    expect(memory.peakGrowth).toBeLessThan(RSS_BOUND);
  }, 90_000);

  it.each(DEEP_FRAMES)('refuses $title before parsing and stays up', async ({ title, frame }) => {
    const start = gateway.stdoutLines.length;
    gateway.send(frame);
    const pingId = `after-${title}`;
    const ping = await gateway.request('ping', undefined, pingId);
    expect(ping).toEqual({ jsonrpc: '2.0', id: pingId, result: {} });
    // Lines are dispatched concurrently: the ping may overtake the deep frame's answer.
    const answers = () =>
      gateway.stdoutLines
        .slice(start)
        .map((line) => JSON.parse(line) as Json | Json[])
        .filter((m) => Array.isArray(m) || m.id !== pingId);
    const deadline = Date.now() + 10_000;
    while (answers().length === 0 && Date.now() < deadline) await delay(10);
    await delay(50);
    expect(answers()).toHaveLength(1);
    expectTooDeep(answers()[0]);
    expect(gateway.child.exitCode).toBeNull();
  });

  it('never overflowed the stack or failed to answer', () => {
    expect(gateway.stderr).not.toContain('Maximum call stack size exceeded');
    expect(gateway.stderr).not.toContain('stdio dispatch failed');
  });
});
