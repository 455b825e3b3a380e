import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { secondsUntilNextUtcMonth } from '../../src/governance/budget/utc-month';
import {
  COSTLY_ESTIMATE,
  LIMITED_PER_MINUTE,
  PRICEY_ESTIMATE,
} from '../fixtures/governance-fixture.capability';
import {
  allOrNothing,
  ClientGroup,
  GovernedClient,
  HttpClient,
  Json,
  ledgerRows,
  openClients,
  openRestartable,
  Reply,
  StdioClient,
  TransportName,
  writeConfig,
} from '../support/governed-clients';

/**
 * Governance end to end, each scenario written once and run over Streamable
 * HTTP (several clients on one gateway in this process) and stdio (one
 * spawned gateway per client, sharing config and ledger): every denial
 * reason refuses the call before its handler runs, answers -32003 with its
 * data and leaves a ledger row; visibility; per-client isolation; quota
 * headers; rules reload; the monthly spend surviving a restart.
 */

const ALPHA_BUDGET = 3;
const ALPHA_PER_MINUTE = 4;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface DeniedData extends Json {
  reason: string;
  retryable: boolean;
  retry_after?: number;
  remaining: { calls_minute?: number; calls_day?: number; budget?: number };
}

function call(client: GovernedClient, name: string): Promise<Reply> {
  return client.rpc('tools/call', { name, arguments: {} });
}

function expectResult(reply: Reply): Json {
  expect(reply.body).toHaveProperty('result');
  if (reply.status !== undefined) expect(reply.status).toBe(200);
  return reply.body.result as Json;
}

function expectDenied(reply: Reply, reason: string): DeniedData {
  if (reply.status !== undefined) expect(reply.status).toBe(200);
  const error = reply.body.error as { code: number; data: DeniedData };
  expect(error).toMatchObject({ code: -32003, data: { reason } });
  return error.data;
}

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await delay(100);
  }
}

/** A transport's stand-in for a group the scenario does not need there. */
const noClients = (): Promise<ClientGroup> =>
  Promise.resolve({ clients: [], close: () => Promise.resolve() });

describe.each<TransportName>(['http', 'stdio'])('governance over %s', (transport) => {
  let dir: string;
  let mainConfig: Json;
  let mainConfigPath: string;
  let mainLedger: string;
  let main: ClientGroup;
  let alpha: GovernedClient;
  let beta: GovernedClient;
  let keyedLedger: string;
  let keyedConfig: string;
  let keyed: ClientGroup;
  let downLedger: string;
  let downConfig: Json;
  let down: ClientGroup;

  const base = (ledger: string): Json => ({
    capabilities: { demo_pack: false },
    logging: { level: 'info' },
    ledger: { sqlite_path: ledger },
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `owlclaw-gov-${transport}-`));
    mainLedger = join(dir, 'main.db');
    keyedLedger = join(dir, 'keyed.db');
    downLedger = join(dir, 'down.db');
    mainConfig = {
      ...base(mainLedger),
      governance: {
        clients: {
          alpha: {
            quota: { monthly_budget: ALPHA_BUDGET, max_calls_per_minute: ALPHA_PER_MINUTE },
          },
        },
      },
    };
    mainConfigPath = writeConfig(dir, 'main.yaml', mainConfig);
    keyedConfig = writeConfig(dir, 'keyed.yaml', {
      ...base(keyedLedger),
      auth: { mode: 'api_key', api_keys: [`keyed:${sha256('key-k')}`, `other:${sha256('key-o')}`] },
    });
    downConfig = {
      ...base(downLedger),
      state: { driver: 'redis', redis_url: `redis://127.0.0.1:${await deadPort()}` },
    };
    const downConfigPath = writeConfig(dir, 'down.yaml', downConfig);
    [main, keyed, down] = await allOrNothing([
      openClients(transport, mainConfigPath, [{ id: 'alpha' }, { id: 'beta' }]),
      openClients(
        transport,
        keyedConfig,
        // Over stdio the process authenticates with MCP_API_KEY, the same key a Bearer header carries.
        transport === 'http'
          ? [{ id: 'keyed', headers: { Authorization: 'Bearer key-k' } }]
          : [{ id: 'keyed', env: { MCP_API_KEY: 'key-k' } }],
      ),
      // The store-failure policy is the same on every transport (its guard has unit specs): one
      // gateway with an unreachable Redis, over HTTP.
      transport === 'http' ? openClients(transport, downConfigPath, [{ id: 'solo' }]) : noClients(),
    ]);
    [alpha, beta] = main.clients;
  }, 180_000);

  afterAll(async () => {
    await Promise.all([main?.close(), keyed?.close(), down?.close()]);
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('hides hidden tools from tools/list and answers them exactly like unknown tools', async () => {
    const names = (expectResult(await alpha.rpc('tools/list')).tools as Json[]).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['gov_free', 'gov_costly', 'gov_limited']));
    expect(names).not.toContain('gov_secret');

    const before = await alpha.counts();
    const hidden = (await call(alpha, 'gov_secret')).body.error as Json;
    const unknown = (await call(alpha, 'gov_nonexistent')).body.error as Json;
    expect(hidden).toEqual({
      code: -32001,
      message: 'Tool not found: gov_secret',
      data: { tool: 'gov_secret', retryable: false, traceId: expect.any(String) },
    });
    expect(unknown).toEqual({
      code: -32001,
      message: 'Tool not found: gov_nonexistent',
      data: { tool: 'gov_nonexistent', retryable: false, traceId: expect.any(String) },
    });
    expect(await alpha.counts()).toEqual(before);
  });

  it('refuses an estimate above max_cost_per_call without running the tool', async () => {
    const before = await alpha.counts();
    const data = expectDenied(await call(alpha, 'gov_pricey'), 'cost_per_call_exceeded');
    expect(data).toMatchObject({
      retryable: false,
      estimated_cost: PRICEY_ESTIMATE,
      max_cost_per_call: 10,
      remaining: { budget: ALPHA_BUDGET },
    });
    expect(data).not.toHaveProperty('retry_after');
    expect(await alpha.counts()).toEqual(before);
  });

  it('allows a call within quota and reports what is left (headers over HTTP)', async () => {
    const reply = await call(alpha, 'gov_costly');
    expect(expectResult(reply).structuredContent ?? expectResult(reply).content).toBeDefined();
    if (reply.headers) {
      expect(reply.headers['x-budget-remaining']).toBe(String(ALPHA_BUDGET));
      expect(reply.headers['x-ratelimit-limit']).toBe(String(ALPHA_PER_MINUTE));
      expect(reply.headers['x-ratelimit-remaining']).toBe(String(ALPHA_PER_MINUTE - 1));
      expect(Number(reply.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(1);
      expect(Number(reply.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60);
    }
  });

  it('refuses a call past the monthly budget until the next UTC month', async () => {
    const before = await alpha.counts();
    const reply = await call(alpha, 'gov_costly');
    const data = expectDenied(reply, 'budget_exceeded');
    const left = ALPHA_BUDGET - COSTLY_ESTIMATE;
    expect(data).toMatchObject({ retryable: true, remaining: { budget: left } });
    expect(Math.abs((data.retry_after ?? 0) - secondsUntilNextUtcMonth(Date.now()))).toBeLessThan(
      30,
    );
    expect(await alpha.counts()).toEqual(before);
    if (reply.headers) expect(reply.headers['x-budget-remaining']).toBe(String(left));
  });

  it('refuses calls past the per-minute limit, and only for that client', async () => {
    // Free calls pass an exhausted budget; the minute window (one call used) fills up.
    for (let i = 2; i <= ALPHA_PER_MINUTE; i++) expectResult(await call(alpha, 'gov_free'));
    const before = await alpha.counts();
    const reply = await call(alpha, 'gov_free');
    const data = expectDenied(reply, 'rate_limited');
    expect(data).toMatchObject({
      retryable: true,
      window: 'minute',
      scope: 'client',
      limit: ALPHA_PER_MINUTE,
      remaining: { calls_minute: 0, budget: ALPHA_BUDGET - COSTLY_ESTIMATE },
    });
    expect(data.retry_after).toBeGreaterThanOrEqual(1);
    expect(data.retry_after).toBeLessThanOrEqual(60);
    expect(await alpha.counts()).toEqual(before);
    if (reply.headers) {
      expect(reply.headers['x-ratelimit-remaining']).toBe('0');
      expect(reply.headers['retry-after']).toBe(String(data.retry_after));
    }
    if (main.baseUrl !== undefined) {
      // Denials by a guard count in the request metrics like any other outcome.
      const metrics = await (await fetch(`${main.baseUrl}/metrics`)).text();
      expect(metrics).toMatch(
        /^mcp_requests_total\{method="tools\/call",outcome="denied"\} [1-9]/m,
      );
    }

    const other = await call(beta, 'gov_free');
    expectResult(other);
    if (other.headers) expect(other.headers['x-ratelimit-limit']).toBe('60');
  });

  it("applies a tool's own limit per client (handler rateLimits)", async () => {
    for (let i = 0; i < LIMITED_PER_MINUTE; i++) expectResult(await call(beta, 'gov_limited'));
    const data = expectDenied(await call(beta, 'gov_limited'), 'rate_limited');
    expect(data).toMatchObject({ scope: 'tool', limit: LIMITED_PER_MINUTE, window: 'minute' });
    // The client-wide window still has room.
    expectResult(await call(beta, 'gov_free'));
  });

  it('records every call, allowed and denied, in the ledger with its reason', () => {
    const rows = ledgerRows(mainLedger, 'alpha').filter((r) => r.method === 'tools/call');
    expect(rows.map((r) => [r.target, r.outcome, r.error_code, r.denial_reason, r.cost])).toEqual([
      ['gov_secret', 'error', -32001, null, 0],
      ['gov_nonexistent', 'error', -32001, null, 0],
      ['gov_pricey', 'denied', -32003, 'cost_per_call_exceeded', 0],
      ['gov_costly', 'success', null, null, COSTLY_ESTIMATE],
      ['gov_costly', 'denied', -32003, 'budget_exceeded', 0],
      ...Array.from({ length: ALPHA_PER_MINUTE - 1 }, () => ['gov_free', 'success', null, null, 0]),
      ['gov_free', 'denied', -32003, 'rate_limited', 0],
    ]);
  });

  it('refuses a client that is not authorised (forbidden)', async () => {
    const [client] = keyed.clients;
    const before = await client.counts();
    if (transport === 'stdio') {
      // auth.mode api_key: MCP_CLIENT_ID alone, or a wrong key, and the process does not start.
      for (const env of [{}, { MCP_API_KEY: 'nope' }] as Array<Record<string, string>>) {
        await expect(StdioClient.open(keyedConfig, 'intruder', env)).rejects.toThrow(
          /stdio gateway exited[\s\S]*MCP_API_KEY/,
        );
      }
      expect(ledgerRows(keyedLedger, 'intruder')).toEqual([]);
      // The key's own client goes through, ledgered under the key's client id.
      expectResult(await call(client, 'gov_free'));
      expect(ledgerRows(keyedLedger, 'keyed')).toEqual([
        expect.objectContaining({ target: 'gov_free', outcome: 'success' }),
      ]);
      return;
    }
    // Over HTTP the transport refuses first: no key, a wrong key, another client's session.
    const http = client as HttpClient;
    await expect(HttpClient.open(http.baseUrl, { id: 'x', headers: {} })).rejects.toThrow(
      'initialize refused: 401',
    );
    const noKey = await http.rpc('tools/call', { name: 'gov_free' }, { Authorization: '' });
    const wrongKey = await http.rpc(
      'tools/call',
      { name: 'gov_free' },
      { Authorization: 'Bearer nope' },
    );
    const otherKey = await http.rpc(
      'tools/call',
      { name: 'gov_free' },
      { Authorization: 'Bearer key-o' },
    );
    for (const [reply, status] of [
      [noKey, 401],
      [wrongKey, 401],
      [otherKey, 403],
    ] as const) {
      expect(reply.status).toBe(status);
      expect(reply.body.error).toMatchObject({
        code: -32003,
        data: { reason: 'forbidden', retryable: false, http_status: status },
      });
    }
    expect(noKey.headers?.['www-authenticate']).toMatch(/^Bearer /);
    expect(await client.counts()).toEqual(before);
    // Refused before any call existed: nothing to ledger. The key's own client goes through.
    expect(ledgerRows(keyedLedger, 'other')).toEqual([]);
    expectResult(await call(client, 'gov_free'));
  });

  if (transport === 'http') {
    it('fails closed when Redis is unreachable (governance_unavailable), or open when told to', async () => {
      const [solo] = down.clients;
      const before = await solo.counts();
      const data = expectDenied(await call(solo, 'gov_free'), 'governance_unavailable');
      expect(data).toMatchObject({ retryable: true, retry_after: 1 });
      expect(await solo.counts()).toEqual(before);
      expect(ledgerRows(downLedger, 'solo')).toEqual([
        expect.objectContaining({ outcome: 'denied', denial_reason: 'governance_unavailable' }),
      ]);

      // governance.fail_open: the same outage lets calls through, unmetered (and still ledgered).
      writeConfig(dir, 'down.yaml', { ...downConfig, governance: { fail_open: true } });
      await eventually(async () => 'result' in (await call(solo, 'gov_free')).body);
      expect((await solo.counts()).gov_free).toBe(before.gov_free + 1);
      expect(ledgerRows(downLedger, 'solo').at(-1)).toMatchObject({ outcome: 'success' });
    });
  }

  it('reloads the rules when the config file changes, ignoring an invalid file', async () => {
    const withDeny = {
      ...mainConfig,
      governance: {
        clients: {
          ...((mainConfig.governance as Json).clients as Json),
          beta: { deny: ['gov_free'] },
        },
      },
    };
    writeConfig(dir, 'main.yaml', withDeny);
    await eventually(async () => {
      const error = (await call(beta, 'gov_free')).body.error as Json | undefined;
      return error?.code === -32001;
    });
    // An invalid file changes nothing: the deny stays in force.
    writeFileSync(
      mainConfigPath,
      'mcp_server:\n  governance:\n    clients:\n      beta:\n        quota: { monthly_budget: -1 }\n',
    );
    // Long enough for the file's next poll (every 500 ms) and the settle delay to have passed.
    await delay(1_300);
    expect(((await call(beta, 'gov_free')).body.error as Json).code).toBe(-32001);
    expectResult(await call(beta, 'gov_costly'));

    // governance.enabled false: nothing is refused, not even alpha's spent budget and minute.
    writeConfig(dir, 'main.yaml', { ...mainConfig, governance: { enabled: false } });
    await eventually(async () => 'result' in (await call(alpha, 'gov_costly')).body);
  });

  it('lists each client its own limits, and a reloaded file in the next tools/list', async () => {
    const limitsOf = async (client: GovernedClient, tool: string) => {
      const tools = expectResult(await client.rpc('tools/list')).tools as Json[];
      return (tools.find((t) => t.name === tool)?._meta as Json)['owlclaw/rateLimits'];
    };
    writeConfig(dir, 'main.yaml', mainConfig);
    // Both clients: the earlier test left beta denied, and the reload must have reached its view too.
    await eventually(
      async () =>
        (await limitsOf(alpha, 'gov_free')) !== undefined &&
        (await limitsOf(beta, 'gov_free')) !== undefined,
    );
    expect(await limitsOf(alpha, 'gov_free')).toEqual({
      maxCallsPerMinute: ALPHA_PER_MINUTE,
      maxCallsPerDay: 1000,
    });
    expect(await limitsOf(beta, 'gov_free')).toEqual({
      maxCallsPerMinute: 60,
      maxCallsPerDay: 1000,
    });
    expect(await limitsOf(beta, 'gov_limited')).toEqual({
      maxCallsPerMinute: LIMITED_PER_MINUTE,
      maxCallsPerDay: 1000,
    });

    const clients = (mainConfig.governance as Json).clients as Json;
    writeConfig(dir, 'main.yaml', {
      ...mainConfig,
      governance: { clients: { ...clients, beta: { quota: { max_calls_per_minute: 7 } } } },
    });
    await eventually(
      async () => ((await limitsOf(beta, 'gov_free')) as Json).maxCallsPerMinute === 7,
    );
    expect(await limitsOf(alpha, 'gov_free')).toEqual({
      maxCallsPerMinute: ALPHA_PER_MINUTE,
      maxCallsPerDay: 1000,
    });
  });

  it('keeps the monthly spend across a restart (SQLite ledger)', async () => {
    const ledger = join(dir, 'restart.db');
    const config = writeConfig(dir, 'restart.yaml', {
      ...base(ledger),
      http: { host: '127.0.0.1', port: 0 },
      governance: { clients: { spender: { quota: { monthly_budget: ALPHA_BUDGET } } } },
    });
    const handle = await openRestartable(transport, config, 'spender');
    try {
      expectResult(await call(handle.client, 'gov_costly'));
      await handle.restart();
      const reply = await call(handle.client, 'gov_costly');
      const data = expectDenied(reply, 'budget_exceeded');
      expect(data.remaining.budget).toBe(ALPHA_BUDGET - COSTLY_ESTIMATE);
      if (reply.headers) {
        expect(reply.headers['x-budget-remaining']).toBe(String(ALPHA_BUDGET - COSTLY_ESTIMATE));
      }
      expect(ledgerRows(ledger, 'spender').map((r) => r.outcome)).toEqual(['success', 'denied']);
    } finally {
      await handle.close();
    }
  }, 180_000);
});
