/**
 * Issue #21, finding 7: a client dribbling a request body kept the process
 * alive after SIGTERM. After SIGTERM or SIGINT the gateway now exits within
 * limits.shutdown_deadline_seconds whatever is still open, and says what it
 * cut; a stop whose work ends sooner is as graceful as before.
 */
import { ClientRequest, request } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { HttpGatewayChild } from '../support/http-child';
import { McpHttpSession } from '../support/mcp-http-session';
import { testGatewayEnv } from '../support/test-defaults';
import { killAllGateways, spawnTracked } from '../support/tracked-gateways';
import { logLines } from './support/limit-refusals';

const DEADLINE_SECONDS = 2;
/** How late past the deadline the exit may come on a loaded machine (process exit, log flush). */
const SLACK_MS = 2_500;

const gatewayEnv = (extra: Record<string, string> = {}) => ({
  ...testGatewayEnv(),
  MCP_SERVER_HTTP_HOST: '127.0.0.1',
  MCP_SERVER_HTTP_PORT: '0',
  MCP_SERVER_LEDGER_ENABLED: 'false',
  MCP_SERVER_LIMITS_SHUTDOWN_DEADLINE_SECONDS: String(DEADLINE_SECONDS),
  ...extra,
});

/** POST /mcp that announces 1,000 bytes of body, sends a few, then nothing. */
function dribble(baseUrl: string, sessionId: string): ClientRequest {
  const req = request(`${baseUrl}/mcp`, {
    method: 'POST',
    agent: false,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'content-length': '1000',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
  });
  req.on('error', () => undefined);
  req.write('{"jsonrpc":"2.0",');
  return req;
}

describe('shutdown deadline', () => {
  afterAll(() => killAllGateways(), 30_000);

  it('exits within the deadline while a client dribbles a body and an SSE stream is open, saying what it cut', async () => {
    const gateway = await HttpGatewayChild.start(gatewayEnv());
    try {
      const session = await McpHttpSession.open(gateway.baseUrl);
      const stream = await session.openStream();
      expect(stream.status).toBe(200);
      const slow = dribble(gateway.baseUrl, session.sessionId);
      await delay(300);

      const started = Date.now();
      gateway.child.kill('SIGTERM');
      const code = await gateway.exited;
      const elapsed = Date.now() - started;

      expect(code).toBe(1);
      // The dribbling client held the stop until the deadline, and no longer.
      expect(elapsed).toBeGreaterThanOrEqual(DEADLINE_SECONDS * 1000 - 200);
      expect(elapsed).toBeLessThan(DEADLINE_SECONDS * 1000 + SLACK_MS);
      await stream.ended;
      const lines = logLines(gateway.stderr);
      expect(lines).toContainEqual(
        expect.objectContaining({
          msg: 'shutting down',
          signal: 'SIGTERM',
          deadlineSeconds: DEADLINE_SECONDS,
        }),
      );
      const cut = lines.find((l) => String(l.msg).startsWith('shutdown deadline reached'));
      expect(cut).toMatchObject({
        level: 50,
        deadlineSeconds: DEADLINE_SECONDS,
        cut: { httpConnections: expect.any(Number), sessions: 1 },
      });
      expect((cut?.cut as { httpConnections: number }).httpConnections).toBeGreaterThanOrEqual(1);
      slow.destroy();
    } finally {
      await gateway.stop();
    }
  }, 60_000);

  it('stops gracefully before the deadline when the work in flight ends sooner', async () => {
    // Past the server's 5 s keep-alive timeout: a drain closes an idle kept-alive connection only then.
    const deadlineSeconds = 10;
    const gateway = await HttpGatewayChild.start(
      gatewayEnv({ MCP_SERVER_LIMITS_SHUTDOWN_DEADLINE_SECONDS: String(deadlineSeconds) }),
    );
    try {
      const session = await McpHttpSession.open(gateway.baseUrl);
      const stream = await session.openStream();
      const sleeping = session.request('s', 'fixture/sleep', { ms: 600 });
      await delay(100);

      const started = Date.now();
      gateway.child.kill('SIGTERM');
      // The request in flight is answered, not cut.
      await expect(sleeping).resolves.toMatchObject({ id: 's', result: { slept: 600 } });
      await gateway.exited;
      const elapsed = Date.now() - started;

      expect(elapsed).toBeLessThan(deadlineSeconds * 1000);
      // An orderly stop exits 0.
      expect(gateway.child.exitCode).toBe(0);
      await stream.ended;
      expect(gateway.stderr).not.toContain('shutdown deadline reached');
    } finally {
      await gateway.stop();
    }
  }, 60_000);

  it('bounds a stdio drain too: a request outlasting the deadline is cut at it', async () => {
    const gateway = await spawnTracked({
      fixtures: true,
      env: {
        MCP_SERVER_LEDGER_ENABLED: 'false',
        MCP_SERVER_LIMITS_SHUTDOWN_DEADLINE_SECONDS: String(DEADLINE_SECONDS),
        // The drain would wait this long for the request before aborting it.
        MCP_SERVER_STDIO_SHUTDOWN_GRACE_SECONDS: '30',
      },
    });
    await gateway.initialize();
    gateway.send({ jsonrpc: '2.0', id: 'long', method: 'fixture/sleep', params: { ms: 60_000 } });
    await delay(300);

    const started = Date.now();
    gateway.child.kill('SIGTERM');
    const exit = await gateway.exited;
    const elapsed = Date.now() - started;

    expect(exit).toEqual({ code: 1, signal: null });
    expect(elapsed).toBeLessThan(DEADLINE_SECONDS * 1000 + SLACK_MS);
    const cut = logLines(gateway.stderr).find((l) =>
      String(l.msg).startsWith('shutdown deadline reached'),
    );
    expect(cut).toMatchObject({ cut: { sessions: 1, requestsInFlight: 1 } });
  }, 60_000);
});
