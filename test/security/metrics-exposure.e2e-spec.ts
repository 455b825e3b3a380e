/**
 * Finding 7, /metrics: anyone could read every client id and its spend, one
 * series per client forever. Now MCP_SERVER_METRICS_TOKEN puts the endpoint
 * behind a bearer token, and only metrics.client_label_limit clients get a
 * spend series of their own; every later one counts under "other".
 */
import { COSTLY_ESTIMATE } from '../fixtures/governance-fixture.capability';
import { httpRequest } from '../robustness/support/limits-client';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { McpHttpSession } from '../support/mcp-http-session';

const METRICS_TOKEN = 'scrape-me-please-0123456789abcdef';
const LABEL_LIMIT = 3;
const CLIENTS = 12;

describe('/metrics behind a bearer token, client labels bounded (finding 7)', () => {
  let gateway: HttpGatewayHandle;

  beforeAll(async () => {
    process.env.MCP_SERVER_METRICS_TOKEN = METRICS_TOKEN;
    try {
      gateway = await startHttpGateway({
        fixtures: true,
        config: { metrics: { client_label_limit: LABEL_LIMIT } },
      });
    } finally {
      delete process.env.MCP_SERVER_METRICS_TOKEN;
    }
  });

  afterAll(() => gateway?.close());

  const scrape = (authorization?: string) =>
    httpRequest(`${gateway.baseUrl}/metrics`, {
      headers: authorization === undefined ? {} : { authorization },
    });

  it('answers 401 without the token or with a wrong one, 200 with it', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong',
      `Bearer ${METRICS_TOKEN}x`,
      `Basic ${METRICS_TOKEN}`,
      METRICS_TOKEN,
    ]) {
      const answer = await scrape(authorization);
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(answer.text).not.toContain('mcp_');
    }
    const answer = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('mcp_requests_total');
    // The token guards /metrics only: the health probes stay open.
    expect((await httpRequest(`${gateway.baseUrl}/health`)).status).toBe(200);
  });

  it(`gives ${LABEL_LIMIT} clients their own spend series and counts ${CLIENTS - LABEL_LIMIT} more as "other"`, async () => {
    for (let i = 0; i < CLIENTS; i++) {
      const session = await McpHttpSession.open(gateway.baseUrl, {
        'x-mcp-client-id': `tenant-${i}`,
      });
      const reply = await session.request(1, 'tools/call', { name: 'gov_costly', arguments: {} });
      expect(reply).toHaveProperty('result');
      await session.close();
    }
    const answer = await scrape(`Bearer ${METRICS_TOKEN}`);
    const series = [...answer.text.matchAll(/^mcp_budget_spend\{client="([^"]*)"\} (\S+)$/gm)].map(
      ([, client, value]) => [client, Number(value)] as const,
    );
    expect(series.length).toBeLessThanOrEqual(LABEL_LIMIT + 1);
    expect(Object.fromEntries(series)).toEqual({
      'tenant-0': COSTLY_ESTIMATE,
      'tenant-1': COSTLY_ESTIMATE,
      'tenant-2': COSTLY_ESTIMATE,
      other: COSTLY_ESTIMATE,
    });
    expect(answer.text).not.toMatch(/tenant-([3-9]|1\d)/);
  });
});
