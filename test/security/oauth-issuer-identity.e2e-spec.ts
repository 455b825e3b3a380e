import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { AuthorizationServer } from '../support/oauth/authorization-server';
import { mcpRequest, openSessionWith, rpc } from '../support/oauth/bearer-http';
import { freePort } from '../support/redis-server';
import { waitForLedgerRows } from '../support/sqlite-ledger';
import { GENEROUS_QUOTA } from '../support/test-defaults';

/**
 * Two trusted issuers each register a client `internal-ops`. Only issuer A's is mapped onto the
 * governance client `internal-ops` (with its allow list and a budget of 5); issuer B's is
 * `<issuer B>#internal-ops`, a client of its own: it does not see what `internal-ops` may see,
 * does not spend its budget, and the ledger and metrics name it with its issuer.
 */

const OPS = { clientId: 'internal-ops', clientSecret: 'internal-ops-secret-0123456789abcdef' };
const BUDGET = 5;

/** A real client-credentials access token of `internal-ops` at `server`, for `resource`. */
async function opsToken(server: AuthorizationServer, resource: string): Promise<string> {
  const basic = Buffer.from(`${OPS.clientId}:${OPS.clientSecret}`).toString('base64');
  const body = new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp', resource });
  const response = await fetch(`${server.issuer}/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
    body,
  });
  if (response.status !== 200) throw new Error(`token request: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

describe('OAuth identity with several issuers', () => {
  let issuerA: AuthorizationServer;
  let issuerB: AuthorizationServer;
  let gateway: HttpGatewayHandle;
  let qualifiedB: string;

  /** One MCP session of `server`'s internal-ops, sending requests in turn. */
  async function sessionOf(server: AuthorizationServer) {
    const token = await opsToken(server, gateway.config.auth.oauth.resource);
    const sessionId = await openSessionWith(gateway.baseUrl, token);
    let id = 10;
    const send = async (method: string, params: Record<string, unknown>) => {
      const answer = await mcpRequest(gateway.baseUrl, {
        token,
        sessionId,
        body: rpc(++id, method, params),
      });
      return answer.body as { result?: Record<string, unknown>; error?: { message: string } };
    };
    return {
      tools: async () =>
        ((await send('tools/list', {})).result?.tools as Array<{ name: string }>).map(
          (t) => t.name,
        ),
      call: (name: string, args: Record<string, unknown> = {}) =>
        send('tools/call', { name, arguments: args }),
    };
  }

  beforeAll(async () => {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const options = { resources: { [resource]: { scope: 'mcp' } }, clients: [OPS] };
    [issuerA, issuerB] = await Promise.all([
      AuthorizationServer.start(options),
      AuthorizationServer.start(options),
    ]);
    qualifiedB = `${issuerB.issuer}#internal-ops`;
    gateway = await startHttpGateway({
      fixtures: true,
      config: {
        http: { port },
        auth: {
          mode: 'oauth',
          oauth: {
            resource,
            issuers: [issuerA.issuer, issuerB.issuer],
            issuer_clients: {
              [issuerA.issuer]: { clients: { 'internal-ops': 'internal-ops' } },
            },
          },
        },
        governance: {
          visibility: { allow: ['budget_unit'], deny: [] },
          clients: {
            'internal-ops': {
              allow: ['budget_unit', 'budget_reporter'],
              // budget_reporter declares no maximum: it reserves max_cost_per_call, which must fit.
              quota: { ...GENEROUS_QUOTA, monthly_budget: BUDGET, max_cost_per_call: BUDGET },
            },
          },
        },
      },
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await Promise.all([issuerA?.stop(), issuerB?.stop()]);
  });

  it("gives issuer B's internal-ops neither A's allow list nor its budget", async () => {
    const opsA = await sessionOf(issuerA);
    const opsB = await sessionOf(issuerB);
    expect((await opsA.tools()).sort()).toEqual(['budget_reporter', 'budget_unit']);
    expect(await opsB.tools()).toEqual(['budget_unit']);
    expect((await opsB.call('budget_reporter', { cost: 1 })).error).toBeDefined();

    // A spends 4 of its 5; B's two calls (1 each) are charged to B, so A's next call of 1 fits.
    expect((await opsA.call('budget_reporter', { cost: BUDGET - 1 })).result).toBeDefined();
    expect((await opsB.call('budget_unit')).result).toBeDefined();
    expect((await opsB.call('budget_unit')).result).toBeDefined();
    expect((await opsA.call('budget_unit')).result).toBeDefined();
    expect((await opsA.call('budget_unit')).error?.message).toMatch(/budget/i);

    const path = gateway.config.ledger.sqlite_path;
    const rowsB = await waitForLedgerRows<{ target: string; outcome: string }>(path, qualifiedB, 3);
    expect(rowsB.map((row) => row.target)).toEqual([
      'budget_reporter',
      'budget_unit',
      'budget_unit',
    ]);
    const rowsA = await waitForLedgerRows<{ target: string }>(path, 'internal-ops', 3);
    expect(rowsA.map((row) => row.target)).toEqual([
      'budget_reporter',
      'budget_unit',
      'budget_unit',
    ]);

    const metrics = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
    expect(metrics).toContain(`mcp_budget_spend{client="internal-ops"} ${BUDGET}`);
    expect(metrics).toContain(`mcp_budget_spend{client="${qualifiedB}"} 2`);
  });
});
