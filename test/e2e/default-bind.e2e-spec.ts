import { HttpGatewayChild } from '../support/http-child';
import { allOrNothing } from '../support/governed-clients';
import { LogLine, logLines } from '../support/log-lines';
import { testGatewayEnv } from '../support/test-defaults';

/**
 * A gateway started without a bind address stays on loopback; one bound to
 * every interface without auth starts anyway (containers need it) but says
 * so in one warning naming the address and the keys that close it.
 */
describe('the default bind and the anonymous remote bind warning', () => {
  let local: HttpGatewayChild;
  let remote: HttpGatewayChild;

  beforeAll(async () => {
    const env = { ...testGatewayEnv(), MCP_SERVER_HTTP_PORT: '0' };
    [local, remote] = await allOrNothing([
      // No MCP_SERVER_HTTP_HOST: the shipped config/mcp-server.yaml and the schema default decide.
      HttpGatewayChild.start(env),
      HttpGatewayChild.start({ ...env, MCP_SERVER_HTTP_HOST: '0.0.0.0' }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([local?.stop(), remote?.stop()]);
  });

  const bindWarnings = (gateway: HttpGatewayChild): LogLine[] =>
    logLines(gateway.stderr).filter((line) => String(line.msg).includes('beyond loopback'));

  it('binds 127.0.0.1 when no host is set, and warns of nothing', async () => {
    const listening = logLines(local.stderr).find((line) => line.msg === 'listening');
    expect(listening?.address).toBe('127.0.0.1');
    expect(bindWarnings(local)).toEqual([]);
    const res = await fetch(`${local.baseUrl}/health`, { headers: { Connection: 'close' } });
    expect(res.status).toBe(200);
  });

  it('warns once on 0.0.0.0 with auth.mode: none, naming the address and the keys, and once of the open /metrics', async () => {
    const listening = logLines(remote.stderr).find((line) => line.msg === 'listening');
    expect(listening?.address).toBe('0.0.0.0');
    const warnings = bindWarnings(remote);
    expect(warnings).toHaveLength(1);
    // 40: pino's warn level.
    expect(warnings[0]).toMatchObject({ level: 40, host: '0.0.0.0' });
    const msg = String(warnings[0].msg);
    expect(msg).toContain('bound to 0.0.0.0');
    expect(msg).toContain('anonymous');
    // The open /metrics is MetricsTokenGuard's own warning, not repeated in the bind warning.
    expect(msg).not.toContain('/metrics');
    const metrics = logLines(remote.stderr).filter((line) =>
      String(line.msg).startsWith('/metrics is open to anyone who reaches 0.0.0.0'),
    );
    expect(metrics).toHaveLength(1);
    expect(metrics[0]).toMatchObject({ level: 40 });
    expect(msg).toMatch(/auth\.mode .*http\.host/);
    // A warning, not a refusal: the gateway serves.
    const res = await fetch(`${remote.baseUrl}/health`, { headers: { Connection: 'close' } });
    expect(res.status).toBe(200);
  });
});
