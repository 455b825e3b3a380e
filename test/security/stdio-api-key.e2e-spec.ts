/**
 * Finding 7, stdio in auth.mode api_key: the process trusted MCP_CLIENT_ID,
 * so anyone who could start it was whichever client they named. Now the
 * real CLI needs MCP_API_KEY, refuses to start without a valid one (exit 1,
 * the reason on stderr, nothing on stdout), and serves calls ledgered under
 * the key's client, with their arguments redacted by the widened default
 * list, nested keys included (finding 7, redaction).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { openSettledLedger } from '../support/sqlite-ledger';
import { makeTempDir, removeDir } from '../support/skills-dir';
import { ExitInfo, StdioGatewayProcess } from '../support/stdio-process';
import { killAllGateways, spawnTracked } from '../support/tracked-gateways';

const KEY = 'ide-key-0123456789';
const KEY_CLIENT = 'ide-laptop';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('stdio in auth.mode api_key needs MCP_API_KEY (finding 7)', () => {
  let dir: string;
  let ledgerPath: string;

  beforeAll(() => {
    dir = makeTempDir('sec-stdio-key');
    ledgerPath = join(dir, 'ledger.db');
  });

  afterAll(async () => {
    await killAllGateways();
    removeDir(dir);
  });

  const keyedEnv = (extra: Record<string, string>) => ({
    MCP_SERVER_AUTH_MODE: 'api_key',
    MCP_SERVER_AUTH_API_KEYS: `${KEY_CLIENT}:${sha256(KEY)},other:${sha256('other-key')}`,
    MCP_SERVER_LEDGER_SQLITE_PATH: ledgerPath,
    ...extra,
  });

  /** The real CLI, expected to refuse: its exit and its output. */
  async function refusedStart(extra: Record<string, string>): Promise<{
    exit: ExitInfo;
    stderr: string;
    stdout: string[];
  }> {
    const gateway = new StdioGatewayProcess({ env: keyedEnv(extra) });
    const timer = setTimeout(() => gateway.child.kill('SIGKILL'), 20_000);
    const exit = await gateway.exited;
    clearTimeout(timer);
    return { exit, stderr: gateway.stderr, stdout: gateway.stdoutLines };
  }

  it.each([
    [
      'no MCP_API_KEY, only a chosen MCP_CLIENT_ID',
      { MCP_CLIENT_ID: KEY_CLIENT },
      /set MCP_API_KEY/,
    ],
    ['a key that is not listed', { MCP_API_KEY: 'guessed' }, /MCP_API_KEY is not a valid API key/],
    [
      'a valid key beside a MCP_CLIENT_ID naming another client',
      { MCP_API_KEY: KEY, MCP_CLIENT_ID: 'other' },
      /MCP_CLIENT_ID "other" is not the client of MCP_API_KEY/,
    ],
  ])('refuses to start with %s', async (_title, extra, reason) => {
    const { exit, stderr, stdout } = await refusedStart(extra);
    expect(exit).toEqual({ code: 1, signal: null });
    expect(stderr).toMatch(reason);
    expect(stderr).not.toContain(KEY);
    expect(stdout).toEqual([]);
  });

  it("serves a valid key's calls ledgered under its client, arguments redacted", async () => {
    const gateway = await spawnTracked({ env: keyedEnv({ MCP_API_KEY: KEY }) });
    expect('result' in (await gateway.initialize())).toBe(true);
    const list = await gateway.request('tools/list', {});
    expect(list).toHaveProperty('result.tools');
    const args = {
      user: 'ada',
      credentials: { user: 'ada', pass: 'p0' },
      login: { pass: 'p1', passenger: 'Bob', sessionCount: 2 },
      pwd: 'p2',
      passwd: 'p3',
      private_key: 'k1',
      'private-key': 'k2',
      cookie: 'c1',
      session: 's1',
      bearer: 'b1',
      auth: 'a1',
      author: 'Ada',
      accounts: [{ id: 1, Password: 'p4' }, [{ privateKey: 'k3' }]],
    };
    const call = await gateway.request('tools/call', { name: 'no_such_tool', arguments: args });
    expect(call).toMatchObject({ error: { code: -32001 } });
    expect((await gateway.endInput()).code).toBe(0);

    const db = openSettledLedger(ledgerPath);
    let rows: Array<{ client_id: string; target: string; arguments: string }>;
    try {
      rows = db
        .prepare("select client_id, target, arguments from ledger where method = 'tools/call'")
        .all() as typeof rows;
    } finally {
      db.close();
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ client_id: KEY_CLIENT, target: 'no_such_tool' });
    const R = '[REDACTED]';
    expect(JSON.parse(rows[0].arguments)).toEqual({
      user: 'ada',
      credentials: R,
      login: { pass: R, passenger: 'Bob', sessionCount: 2 },
      pwd: R,
      passwd: R,
      private_key: R,
      'private-key': R,
      cookie: R,
      session: R,
      bearer: R,
      auth: R,
      author: 'Ada',
      accounts: [{ id: 1, Password: R }, [{ privateKey: R }]],
    });
    expect(rows[0].arguments).not.toMatch(/p[0-4]"|k[1-3]"|c1|s1|b1|a1/);
  });
});
