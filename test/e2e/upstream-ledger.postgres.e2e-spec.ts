import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Client as PgClient } from 'pg';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { postgresReachable, SERVICES_REQUIRED, TEST_POSTGRES_URL } from '../support/postgres';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import { REPO_ROOT } from '../support/stdio-process';
import { TYPESCRIPT_LOADER } from '../support/typescript-loader';

/**
 * The ledger's upstream columns on PostgreSQL, written by a real gateway
 * (ledger.driver postgres, a schema of its own): an upstream call names its
 * server and tool, a local call leaves both null, and a call refused for
 * want of approval is a denied row with reason approval_required.
 */

const ECHO_UPSTREAM = join(REPO_ROOT, 'test', 'fixtures', 'upstreams', 'echo-upstream.ts');
const available = postgresReachable();

if (!available) {
  process.stderr.write(
    `\n!!! PostgreSQL is not reachable at ${TEST_POSTGRES_URL}: the upstream ledger columns on PostgreSQL are SKIPPED` +
      `${SERVICES_REQUIRED ? ' (and MCP_TEST_REQUIRE_SERVICES=1 makes that a failure)' : ''}. !!!\n\n`,
  );
}

if (SERVICES_REQUIRED) {
  describe('PostgreSQL for the upstream ledger columns', () => {
    it(`is reachable at ${TEST_POSTGRES_URL} (MCP_TEST_REQUIRE_SERVICES=1)`, () => {
      expect(available).toBe(true);
    });
  });
}

interface Row {
  target: string;
  outcome: string;
  denial_reason: string | null;
  upstream_server: string | null;
  upstream_tool: string | null;
}

// Skipped loudly (above) where PostgreSQL is missing, as the other PostgreSQL suites are.
(available ? describe : describe.skip)('upstream ledger columns on PostgreSQL', () => {
  const schema = `owlclaw_upstream_${randomUUID().slice(0, 8)}`;
  let dir: string;
  let pg: PgClient;
  let gateway: HttpGatewayHandle;
  let handle: SdkClientHandle;

  beforeAll(async () => {
    pg = new PgClient({ connectionString: TEST_POSTGRES_URL });
    await pg.connect();
    await pg.query(`create schema ${schema}`);
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-upstream-pg-'));
    writeFileSync(
      join(dir, 'echo.json'),
      JSON.stringify({
        version: 1,
        server_id: 'echo',
        transport: 'stdio',
        stdio: {
          command: process.execPath,
          args: ['-r', TYPESCRIPT_LOADER, ECHO_UPSTREAM],
          cwd: REPO_ROOT,
        },
        allowed_tools: ['echo', 'approval_write'],
        approval_policy: { default: 'never', tools: { approval_write: 'always' } },
      }),
    );
    gateway = await startHttpGateway({
      fixtures: true,
      config: {
        upstreams: { registry_dir: dir },
        ledger: {
          driver: 'postgres',
          // pg passes `options` to the server: this gateway's ledger lives in this run's schema.
          postgres_url: `${TEST_POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
        },
      },
    });
    await gateway.app.get(UpstreamToolsPublisher).settled();
    handle = await connectSdkClient({
      kind: 'streamable-http',
      baseUrl: gateway.baseUrl,
      headers: { 'X-MCP-Client-ID': 'pg-caller' },
    });
  }, 120_000);

  afterAll(async () => {
    await handle?.dispose();
    await gateway?.close();
    if (pg) {
      await pg.query(`drop schema if exists ${schema} cascade`);
      await pg.end();
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function rows(count: number): Promise<Row[]> {
    for (let tries = 0; tries < 100; tries++) {
      const result = await pg.query<Row>(
        `select target, outcome, denial_reason, upstream_server, upstream_tool
           from ${schema}.ledger where client_id = $1 order by id`,
        ['pg-caller'],
      );
      if (result.rows.length >= count) return result.rows;
      await delay(50);
    }
    throw new Error(`fewer than ${count} ledger rows`);
  }

  it('names the server and upstream tool of upstream calls and leaves local calls null', async () => {
    const { client } = handle;
    await client.callTool({ name: 'echo__echo', arguments: { text: 'pg' } });
    await client.callTool({ name: 'fx_add', arguments: { a: 1, b: 2 } });
    const refused = await client.callTool({ name: 'echo__approval_write', arguments: {} }).then(
      () => undefined,
      (error: unknown) => error as { code?: number },
    );
    expect(refused?.code).toBe(-32003);
    expect(await rows(3)).toEqual([
      {
        target: 'echo__echo',
        outcome: 'success',
        denial_reason: null,
        upstream_server: 'echo',
        upstream_tool: 'echo',
      },
      {
        target: 'fx_add',
        outcome: 'success',
        denial_reason: null,
        upstream_server: null,
        upstream_tool: null,
      },
      {
        target: 'echo__approval_write',
        outcome: 'denied',
        denial_reason: 'approval_required',
        upstream_server: 'echo',
        upstream_tool: 'approval_write',
      },
    ]);
  });
});
