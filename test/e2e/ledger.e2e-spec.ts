import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { LEDGER_STORE, LedgerStore } from '../../src/ledger/ledger-store';
import { LedgerWriter } from '../../src/ledger/ledger.writer';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { JsonRpcReply, McpHttpSession } from '../support/mcp-http-session';
import { makeTempDir, removeDir, skillMarkdown, writeSkill } from '../support/skills-dir';
import { spawnReady, StdioGatewayProcess } from '../support/stdio-process';
import { readLedgerRows } from '../support/sqlite-ledger';

/**
 * The call ledger end to end: calls made over Streamable HTTP (gateway in
 * this process) and stdio (fixture gateway as a child) are read back from
 * the SQLite file itself, while the gateway still runs: the row exists as
 * soon as the response does.
 */

const KINDS = ['streamable-http', 'stdio'] as const;
type Kind = (typeof KINDS)[number];

const SKILL_URI = 'skill://sales/pricing';

interface LedgerColumns {
  id: number;
  time: number;
  request_id: string;
  trace_id: string;
  client_id: string;
  session_id: string;
  transport: string;
  method: string;
  target: string;
  arguments: string | null;
  outcome: string;
  error_code: number | null;
  denial_reason: string | null;
  duration_ms: number;
  cost: number;
  result_bytes: number;
  error_message: string | null;
  result_sha256: string | null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface Connection {
  clientId: string;
  /** The gateway's session id when the transport reveals it (HTTP). */
  sessionId?: string;
  call(id: string | number, method: string, params: object): Promise<JsonRpcReply>;
  close(): Promise<void>;
}

let root: string;
let skillsDir: string;
let http: HttpGatewayHandle | undefined;
let stdio: StdioGatewayProcess | undefined;

beforeAll(() => {
  root = makeTempDir('ledger-e2e');
  skillsDir = join(root, 'skills');
  writeSkill(skillsDir, 'sales', 'pricing', {
    'SKILL.md': skillMarkdown(
      { name: 'pricing', description: 'How prices are set', tags: ['sales'] },
      '# Pricing\n\nList price minus discounts.\n',
    ),
  });
});

afterAll(async () => {
  await http?.close();
  await stdio?.kill();
  removeDir(root);
});

const ledgerPath = (kind: Kind) => join(root, kind, 'data', 'ledger.db');

async function connect(kind: Kind): Promise<Connection> {
  if (kind === 'streamable-http') {
    http = await startHttpGateway({
      fixtures: true,
      config: {
        ledger: { sqlite_path: ledgerPath(kind) },
        resources: { skills_dir: skillsDir },
      },
    });
    const clientId = 'ledger-e2e-http';
    const session = await McpHttpSession.open(http.baseUrl, { 'x-mcp-client-id': clientId });
    return {
      clientId,
      sessionId: session.sessionId,
      call: (id, method, params) => session.request(id, method, params),
      close: async () => {
        await session.close();
        await http?.close();
        http = undefined;
      },
    };
  }
  const clientId = 'ledger-e2e-stdio';
  stdio = await spawnReady({
    fixtures: true,
    env: {
      MCP_SERVER_LEDGER_SQLITE_PATH: ledgerPath(kind),
      MCP_SERVER_SKILLS_DIR: skillsDir,
      MCP_CLIENT_ID: clientId,
    },
  });
  const child = stdio;
  await child.initialize();
  return {
    clientId,
    call: (id, method, params) => child.request(method, params as Record<string, unknown>, id),
    close: async () => {
      const exit = await child.endInput();
      expect(exit.code).toBe(0);
      stdio = undefined;
    },
  };
}

const readLedger = (kind: Kind) => readLedgerRows<LedgerColumns>(ledgerPath(kind));

describe.each(KINDS)('ledger over %s', (kind) => {
  it('records one row per tools/call and resources/read, committed before the response', async () => {
    const connection = await connect(kind);
    const started = Date.now();

    const add = await connection.call('add-1', 'tools/call', {
      name: 'fx_add',
      arguments: { a: 2, b: 3 },
    });
    expect(add.result).toMatchObject({ structuredContent: { sum: 5 } });
    const unknown = await connection.call(101, 'tools/call', {
      name: 'no_such_tool',
      arguments: {
        password: 'hunter2',
        nested: { api_key: 'k-1', keep: 1 },
        list: [{ token: 't' }],
      },
    });
    expect(unknown.error).toMatchObject({ code: -32001 });
    const read = await connection.call(102, 'resources/read', { uri: SKILL_URI });
    expect(read.result).toMatchObject({ contents: [{ uri: SKILL_URI }] });
    const toolError = await connection.call('is-error', 'tools/call', {
      name: 'fx_is_error',
      arguments: {},
    });
    expect(toolError.result).toMatchObject({ isError: true });

    // Read while the gateway still runs: every answered call is already committed.
    const rows = readLedger(kind);
    expect(rows.map((r) => [r.request_id, r.method, r.target, r.outcome, r.error_code])).toEqual([
      ['s:add-1', 'tools/call', 'fx_add', 'success', null],
      ['n:101', 'tools/call', 'no_such_tool', 'error', -32001],
      ['n:102', 'resources/read', SKILL_URI, 'success', null],
      ['s:is-error', 'tools/call', 'fx_is_error', 'tool_error', null],
    ]);
    for (const row of rows) {
      expect(row.client_id).toBe(connection.clientId);
      expect(row.transport).toBe(kind);
      expect(row.session_id).toBe(connection.sessionId ?? rows[0].session_id);
      expect(row.session_id).not.toBe('');
      expect(row.trace_id).not.toBe('');
      expect(row.time).toBeGreaterThanOrEqual(started - 1_000);
      expect(row.time).toBeLessThanOrEqual(Date.now());
      expect(row.duration_ms).toBeGreaterThanOrEqual(0);
      expect(row.denial_reason).toBeNull();
    }
    const [addRow, unknownRow, readRow, toolErrorRow] = rows;
    expect(JSON.parse(addRow.arguments ?? 'null')).toEqual({ a: 2, b: 3 });
    expect(addRow.result_bytes).toBe(Buffer.byteLength(JSON.stringify(add.result)));
    expect(JSON.parse(unknownRow.arguments ?? 'null')).toEqual({
      password: '[REDACTED]',
      nested: { api_key: '[REDACTED]', keep: 1 },
      list: [{ token: '[REDACTED]' }],
    });
    expect(unknownRow.result_bytes).toBe(0);
    expect(JSON.parse(readRow.arguments ?? 'null')).toEqual({ uri: SKILL_URI });
    expect(readRow.result_bytes).toBe(Buffer.byteLength(JSON.stringify(read.result)));
    expect(toolErrorRow.result_bytes).toBe(Buffer.byteLength(JSON.stringify(toolError.result)));
    // The digest covers the bytes result_bytes counts; the message is what the client was told.
    expect([addRow, readRow, toolErrorRow].map((r) => r.result_sha256)).toEqual([
      sha256(JSON.stringify(add.result)),
      sha256(JSON.stringify(read.result)),
      sha256(JSON.stringify(toolError.result)),
    ]);
    expect(unknownRow.result_sha256).toBeNull();
    expect(rows.map((r) => r.error_message)).toEqual([
      null,
      (unknown.error as { message: string }).message,
      null,
      'bad input',
    ]);
    expect(unknownRow.error_message).toBe('Tool not found: no_such_tool');

    await connection.close();
    expect(readLedger(kind)).toHaveLength(4);
  });
});

describe('ledger readiness', () => {
  it('reports the ledger in /health/ready: up while it answers, 503 once it cannot', async () => {
    const gateway = await startHttpGateway({
      config: { ledger: { sqlite_path: join(root, 'health', 'ledger.db') } },
    });
    try {
      const up = await fetch(`${gateway.baseUrl}/health/ready`);
      expect(up.status).toBe(200);
      expect(await up.json()).toMatchObject({
        status: 'ok',
        info: { ledger: { status: 'up', driver: 'sqlite' } },
      });

      await gateway.app.get<LedgerStore>(LEDGER_STORE).close();
      const down = await fetch(`${gateway.baseUrl}/health/ready`);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({
        status: 'error',
        error: { ledger: { status: 'down', driver: 'sqlite' } },
      });
    } finally {
      await gateway.close();
    }
  });
});

describe('ledger metrics', () => {
  it('counts tools/call by tool and outcome (unknown names folded) and times ledger writes', async () => {
    const gateway = await startHttpGateway({
      fixtures: true,
      config: { ledger: { sqlite_path: join(root, 'metrics', 'ledger.db') } },
    });
    try {
      const metric = async (line: RegExp): Promise<number> => {
        const text = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
        const match = text.split('\n').find((l) => line.test(l));
        return match === undefined ? 0 : Number(match.split(' ').at(-1));
      };
      const added = /^mcp_tool_calls_total\{tool="fx_add",outcome="success"\} /;
      const unknown = /^mcp_tool_calls_total\{tool="\(unknown\)",outcome="error"\} /;
      const writes = /^mcp_ledger_write_duration_seconds_count /;
      const before = [await metric(added), await metric(unknown), await metric(writes)];

      const session = await McpHttpSession.open(gateway.baseUrl);
      await session.request(1, 'tools/call', { name: 'fx_add', arguments: { a: 1, b: 1 } });
      await session.request(2, 'tools/call', { name: 'made_up_name_1', arguments: {} });
      await session.request(3, 'tools/call', { name: 'made_up_name_2', arguments: {} });
      await session.close();

      expect(await metric(added)).toBe(before[0] + 1);
      expect(await metric(unknown)).toBe(before[1] + 2);
      expect(await metric(writes)).toBe(before[2] + 3);
      const text = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
      expect(text).not.toContain('made_up_name');
    } finally {
      await gateway.close();
    }
  });
});

describe('ledger group commit over HTTP', () => {
  it('shares commits between concurrent requests (each arrives in its own callback)', async () => {
    const gateway = await startHttpGateway({
      fixtures: true,
      config: { ledger: { sqlite_path: join(root, 'group-commit', 'ledger.db') } },
    });
    try {
      const writer = gateway.app.get(LedgerWriter);
      const session = await McpHttpSession.open(gateway.baseUrl);
      const calls = 40;
      const round = () =>
        Promise.all(
          Array.from({ length: calls }, (_, i) =>
            session.request(i + 1, 'tools/call', { name: 'fx_add', arguments: { a: i, b: 1 } }),
          ),
        );
      // The first round opens the client's connections; the second is sent on open ones at once.
      await round();
      const before = { ...writer.stats };
      const replies = await round();
      await session.close();

      expect(replies.every((reply) => 'result' in reply)).toBe(true);
      expect(writer.stats.rows - before.rows).toBe(calls);
      // Requests read in one poll phase are gathered by the end of the turn, not committed alone.
      expect(writer.stats.batches - before.batches).toBeLessThanOrEqual(calls / 2);
    } finally {
      await gateway.close();
    }
  });
});
