/**
 * Issue #22, item 2: the stop a load balancer expects. At SIGTERM readiness
 * fails at once while the gateway keeps serving for http.drain_delay_seconds;
 * then the listener closes, calls in flight finish, held SSE streams end with
 * a retry hint, the ledger is flushed and the process exits 0. No request on
 * an open connection is ever answered with a reset. A loopback gateway with
 * no delay configured has no load balancer to wait for and closes at once.
 */
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpGatewayChild } from '../support/http-child';
import { McpHttpSession } from '../support/mcp-http-session';
import { rawToolCall } from '../support/raw-mcp-call';
import { readLedgerRows } from '../support/sqlite-ledger';
import { testGatewayEnv } from '../support/test-defaults';

interface LedgerRow {
  request_id: string;
  method: string;
  target: string;
  outcome: string;
}

const CONTINUOUS_CLIENTS = 4;

/** A loopback gateway; an undefined delay leaves the key unset, as a local `npm start` would. */
function drainingGateway(delaySeconds: number | undefined) {
  const env = testGatewayEnv();
  const ledgerPath = env.MCP_SERVER_LEDGER_SQLITE_PATH;
  return {
    ledgerPath,
    start: () =>
      HttpGatewayChild.start({
        ...env,
        MCP_SERVER_TRANSPORT: 'http',
        MCP_SERVER_HTTP_HOST: '127.0.0.1',
        MCP_SERVER_HTTP_PORT: '0',
        MCP_SERVER_HTTP_DRAIN_DELAY_SECONDS:
          delaySeconds === undefined ? undefined : String(delaySeconds),
        // The production default: clients reuse idle connections, which the drain must not reset.
        MCP_SERVER_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '5',
      }),
  };
}

function logLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function logged(gateway: HttpGatewayChild, msg: string): boolean {
  return logLines(gateway.stderr).some((line) => line.msg === msg);
}

async function waitForLog(gateway: HttpGatewayChild, msg: string): Promise<void> {
  while (!logged(gateway, msg)) {
    if (gateway.child.exitCode !== null) throw new Error(`exited before "${msg}"`);
    await sleep(10);
  }
}

/** A GET on a connection of its own (no agent), resolving with its status or the socket error's code. */
function probe(baseUrl: string, path: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(`${baseUrl}${path}`, { agent: false }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}

/** The socket error code behind a failed fetch (undici puts it on `cause`). */
function fetchErrorCode(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? String(err);
}

describe('graceful drain (HTTP)', () => {
  let gateway: HttpGatewayChild | undefined;

  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
  }, 30_000);

  it('fails readiness at SIGTERM while liveness and new connections are still served', async () => {
    // Two seconds of delay: the probes below must all land inside it.
    const setup = drainingGateway(2);
    gateway = await setup.start();
    const session = await McpHttpSession.open(gateway.baseUrl);
    expect(await probe(gateway.baseUrl, '/health/ready')).toBe(200);

    gateway.child.kill('SIGTERM');
    await waitForLog(gateway, 'draining started');

    expect(await probe(gateway.baseUrl, '/health/ready')).toBe(503);
    expect(await probe(gateway.baseUrl, '/health')).toBe(200);
    const call = await rawToolCall(
      gateway.baseUrl,
      session.sessionId,
      'during-delay',
      'fx_add',
      { a: 2, b: 3 },
      false,
    );
    expect(logged(gateway, 'listener closed')).toBe(false);
    expect(call.status).toBe(200);
    expect(call.reply).toMatchObject({
      id: 'during-delay',
      result: { content: expect.any(Array) },
    });

    expect(await gateway.exited).toBe(0);
    expect(logLines(gateway.stderr)).toContainEqual(
      expect.objectContaining({ msg: 'draining started', signal: 'SIGTERM', delaySeconds: 2 }),
    );
    const rows = readLedgerRows<LedgerRow>(setup.ledgerPath);
    expect(rows.map((row) => row.request_id)).toContain('s:during-delay');
  }, 90_000);

  it('answers a call in flight when the listener closes, then refuses new connections', async () => {
    const setup = drainingGateway(1);
    gateway = await setup.start();
    const session = await McpHttpSession.open(gateway.baseUrl);
    const keepAlive = new Agent({ keepAlive: true });
    try {
      // A kept-alive connection, open before the signal.
      const warmUp = await rawToolCall(
        gateway.baseUrl,
        session.sessionId,
        'warm-up',
        'fx_add',
        { a: 1, b: 1 },
        keepAlive,
      );
      expect(warmUp.headers.connection).toBe('keep-alive');

      gateway.child.kill('SIGTERM');
      await waitForLog(gateway, 'draining started');
      await sleep(500);
      expect(logged(gateway, 'listener closed')).toBe(false);
      // fx_sleep's own timeout is 1 s; 800 ms outlasts the rest of the delay.
      const inFlight = rawToolCall(
        gateway.baseUrl,
        session.sessionId,
        'in-flight',
        'fx_sleep',
        { ms: 800 },
        keepAlive,
      );
      await waitForLog(gateway, 'listener closed');
      expect(await probe(gateway.baseUrl, '/health')).toBe('ECONNREFUSED');

      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.reply).toMatchObject({
        id: 'in-flight',
        result: { content: expect.any(Array) },
      });
      // The connection is told to close with its last answer, never cut under it.
      expect(answer.headers.connection).toBe('close');
      expect(await gateway.exited).toBe(0);
    } finally {
      keepAlive.destroy();
    }
    const ids = readLedgerRows<LedgerRow>(setup.ledgerPath).map((row) => row.request_id);
    expect(ids).toEqual(expect.arrayContaining(['s:warm-up', 's:in-flight']));
    expect(
      logLines(gateway.stderr)
        .map((line) => line.msg)
        .filter((msg) =>
          ['draining started', 'listener closed', 'streams closed', 'drain done'].includes(
            msg as string,
          ),
        ),
    ).toEqual(['draining started', 'listener closed', 'streams closed', 'drain done']);
  }, 90_000);

  it('gives keep-alive clients calling through SIGTERM an answer or a refusal, never a reset', async () => {
    const setup = drainingGateway(1);
    gateway = await setup.start();
    const sessions = await Promise.all(
      Array.from({ length: CONTINUOUS_CLIENTS }, () => McpHttpSession.open(gateway!.baseUrl)),
    );
    const answered: string[] = [];
    const refusals: string[] = [];
    const failures: string[] = [];
    let signalled = false;

    // Each client calls back to back over fetch's kept-alive connections until one is refused.
    const clients = sessions.map(async (session, client) => {
      for (let n = 0; ; n++) {
        const id = `c${client}-${n}`;
        try {
          const reply = await session.request(id, 'tools/call', {
            name: 'fx_add',
            arguments: { a: client, b: n },
          });
          if (!('result' in reply) || (reply.result as { isError?: boolean }).isError === true) {
            failures.push(`${id}: ${JSON.stringify(reply)}`);
            return;
          }
          answered.push(id);
        } catch (err) {
          const code = fetchErrorCode(err);
          if (code === 'ECONNREFUSED' && signalled) refusals.push(id);
          else failures.push(`${id}: ${code}`);
          return;
        }
      }
    });
    while (answered.length < 20 * CONTINUOUS_CLIENTS && failures.length === 0) await sleep(10);
    const beforeSignal = answered.length;
    signalled = true;
    gateway.child.kill('SIGTERM');
    await Promise.all(clients);

    expect(failures).toEqual([]);
    expect(refusals).toHaveLength(CONTINUOUS_CLIENTS);
    // Calls went on through the delay.
    expect(answered.length).toBeGreaterThan(beforeSignal);
    expect(await gateway.exited).toBe(0);
    const ledgered = new Set(
      readLedgerRows<LedgerRow>(setup.ledgerPath).map((row) => row.request_id),
    );
    expect(answered.filter((id) => !ledgered.has(`s:${id}`))).toEqual([]);
  }, 120_000);

  it('skips the delay at Ctrl-C on a loopback bind when no delay is configured', async () => {
    const setup = drainingGateway(undefined);
    gateway = await setup.start();
    const session = await McpHttpSession.open(gateway.baseUrl);
    await session.request('before-stop', 'tools/call', {
      name: 'fx_add',
      arguments: { a: 1, b: 2 },
    });

    gateway.child.kill('SIGINT');

    expect(await gateway.exited).toBe(0);
    expect(logLines(gateway.stderr)).toContainEqual(
      expect.objectContaining({ msg: 'draining started', signal: 'SIGINT', delaySeconds: 0 }),
    );
    expect(logged(gateway, 'drain done')).toBe(true);
    const ids = readLedgerRows<LedgerRow>(setup.ledgerPath).map((row) => row.request_id);
    expect(ids).toContain('s:before-stop');
  }, 90_000);

  it('ends an open standalone SSE stream with a retry hint and exits 0', async () => {
    gateway = await drainingGateway(1).start();
    const session = await McpHttpSession.open(gateway.baseUrl);
    const stream = await session.openStream();
    expect(stream.status).toBe(200);

    gateway.child.kill('SIGTERM');
    await stream.ended;

    expect(stream.text).toMatch(/^retry: \d+$/m);
    expect(await gateway.exited).toBe(0);
    expect(logLines(gateway.stderr)).toContainEqual(
      expect.objectContaining({ msg: 'streams closed', streams: 1 }),
    );
  }, 90_000);
});
