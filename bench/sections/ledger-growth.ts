import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ChildServer } from '../lib/child';
import { BenchContext } from '../lib/context';
import { GatewaySetup, LedgerSetup, startGateway } from '../lib/gateway';
import { fillPostgresLedger, fillSqliteLedger } from '../lib/ledger-fill';
import { CLIENTS, clientName } from '../lib/ledger-rows';
import { progress } from '../lib/log';
import { timeQuery } from '../lib/query-timing';
import { GrowthResults, QueryTiming } from '../report/results';

const ADMIN_TOKEN = 'bench-admin-token';
const STATS_REPEATS = 5;
const FILTER_REPEATS = 20;
type LedgerResult = GrowthResults['ledger'][number];

/**
 * Admin queries over a big ledger: the gateway creates its table (first start),
 * the bench fills it, then times GET /admin/governance/stats and a filtered
 * GET /admin/ledger on a second start.
 */
export async function runLedgerGrowth(ctx: BenchContext, notes: string[]): Promise<LedgerResult[]> {
  const results: LedgerResult[] = [];
  for (const driver of ctx.options.ledgerDrivers) {
    if (driver === 'sqlite') results.push(await sqliteLedger(ctx));
    else {
      const result = await postgresLedger(ctx).catch((err: Error) => {
        notes.push(`PostgreSQL ledger not measured: ${err.message}`);
        return undefined;
      });
      if (result) results.push(result);
    }
  }
  return results;
}

async function sqliteLedger(ctx: BenchContext): Promise<LedgerResult> {
  const scratch = ctx.compiled.scratch('ledger-sqlite');
  const path = join(scratch, 'ledger.db');
  return measure(ctx, 'sqlite', scratch, { driver: 'sqlite', path }, () => {
    progress(`ledger sqlite: inserting ${ctx.options.ledgerRows} rows`);
    return Promise.resolve(fillSqliteLedger(path, ctx.options.ledgerRows));
  });
}

async function postgresLedger(ctx: BenchContext): Promise<LedgerResult> {
  const schema = `owlclaw_bench_${process.pid}`;
  const admin = new Client({ connectionString: ctx.options.postgresUrl });
  await admin.connect();
  try {
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.query(`create schema ${schema}`);
    const url = new URL(ctx.options.postgresUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const scratch = ctx.compiled.scratch('ledger-postgres');
    return await measure(
      ctx,
      'postgres',
      scratch,
      { driver: 'postgres', url: url.toString() },
      () => {
        progress(`ledger postgres: inserting ${ctx.options.ledgerRows} rows (schema ${schema})`);
        return fillPostgresLedger(admin, schema, ctx.options.ledgerRows);
      },
    );
  } finally {
    await admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    await admin.end();
  }
}

async function measure(
  ctx: BenchContext,
  driver: LedgerResult['driver'],
  scratch: string,
  ledger: LedgerSetup,
  fill: () => Promise<number>,
): Promise<LedgerResult> {
  mkdirSync(scratch, { recursive: true });
  const setup: GatewaySetup = {
    name: `gateway-ledger-${driver}`,
    governance: true,
    ledger,
    modules: [],
    skillsDir: ctx.compiled.scratch('ledger-empty-skills'),
    scratch,
    transport: 'http',
    nodeFlags: ctx.options.nodeFlags,
    adminToken: ADMIN_TOKEN,
  };
  progress(`ledger ${driver}: first start (creates the table)`);
  await (await startGateway(setup)).server.stop();
  const fillMs = await fill();
  progress(`ledger ${driver}: timing the admin queries`);
  const { server, port } = await startGateway(setup);
  try {
    return {
      driver,
      rows: ctx.options.ledgerRows,
      fillMs,
      timings: await adminTimings(server, port),
    };
  } finally {
    await server.stop();
  }
}

async function adminTimings(server: ChildServer, port: number): Promise<QueryTiming[]> {
  const base = `http://127.0.0.1:${port}/admin`;
  const client = clientName(42);
  const get = async (path: string): Promise<Record<string, unknown>> => {
    const res = await fetch(`${base}${path}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const text = await res.text();
    if (res.status !== 200)
      throw new Error(`${server.name} GET ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const stats = await timeQuery({
    label: 'GET /admin/governance/stats',
    repeats: STATS_REPEATS,
    targeted: true,
    run: async () => {
      const body = await get('/governance/stats');
      const clients = (body.clients as unknown[] | undefined)?.length ?? 0;
      if (clients !== CLIENTS)
        throw new Error(`stats listed ${clients} clients, expected ${CLIENTS}`);
      const totals = body.totals as { calls_this_month?: number } | undefined;
      return `${clients} clients, ${totals?.calls_this_month ?? '?'} calls this month`;
    },
  });
  const filtered = await timeQuery({
    label: `GET /admin/ledger?client=${client}`,
    repeats: FILTER_REPEATS,
    targeted: true,
    run: async () => {
      const body = await get(`/ledger?client=${client}`);
      const items = body.items as Array<{ clientId?: string; client_id?: string }> | undefined;
      if (!items || items.length === 0) throw new Error('the filtered ledger page is empty');
      return `${items.length} rows (one page)`;
    },
  });
  const perClient = await timeQuery({
    label: `GET /admin/governance/clients/${client}`,
    repeats: FILTER_REPEATS,
    targeted: false,
    run: async () => {
      const body = await get(`/governance/clients/${client}`);
      return `${String(body.calls_this_month)} calls this month`;
    },
  });
  return [stats, filtered, perClient];
}
