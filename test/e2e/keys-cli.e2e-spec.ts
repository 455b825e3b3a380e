import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ledgerRows, writeConfig } from '../support/governed-clients';
import { CLI_ENTRY, spawnReady, StdioGatewayProcess } from '../support/stdio-process';

/**
 * `owlclaw mcp-server keys create`, built and spawned: the entry it prints is
 * the SHA-256 of the key it prints, and a gateway given that entry in
 * `auth.api_keys` takes the key as the client's (over stdio, MCP_API_KEY).
 */
const run = promisify(execFile);

async function createKey(
  ...args: string[]
): Promise<{ key: string; entry: string; stderr: string }> {
  const { stdout, stderr } = await run(process.execPath, [
    CLI_ENTRY,
    'mcp-server',
    'keys',
    'create',
    ...args,
  ]);
  const key = /^key: (\S+)$/m.exec(stdout)?.[1];
  const entry = /^auth\.api_keys entry: (\S+)$/m.exec(stdout)?.[1];
  if (!key || !entry) throw new Error(`unexpected output:\n${stdout}`);
  return { key, entry, stderr };
}

describe('owlclaw mcp-server keys create', () => {
  let dir: string;
  let alice: Awaited<ReturnType<typeof createKey>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-keys-'));
    alice = await createKey('--client', 'alice');
  }, 60_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints a random key and the entry holding its SHA-256, and says the key is shown once', async () => {
    expect(alice.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const sha256 = createHash('sha256').update(alice.key).digest('hex');
    expect(alice.entry).toBe(`alice:${sha256}`);
    expect(alice.stderr).toContain('The key is shown once');
    expect(alice.stderr).not.toContain(alice.key);
    const another = await createKey();
    expect(another.key).not.toBe(alice.key);
    expect(another.entry).toMatch(/^<client_id>:[0-9a-f]{64}$/);
    expect(another.stderr).toContain('pass --client <id>');
  });

  it('refuses a client id that auth.api_keys cannot hold, printing no key', async () => {
    const refused = run(process.execPath, [
      CLI_ENTRY,
      'mcp-server',
      'keys',
      'create',
      '--client',
      'a b',
    ]);
    await expect(refused).rejects.toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining('cannot name a client in auth.api_keys'),
    });
  });

  describe('a stdio gateway whose auth.api_keys holds the printed entry', () => {
    let ledger: string;
    let config: string;
    const gateways: StdioGatewayProcess[] = [];

    beforeAll(() => {
      ledger = join(dir, 'ledger.db');
      config = writeConfig(dir, 'keyed.yaml', {
        auth: { mode: 'api_key', api_keys: [alice.entry] },
        ledger: { sqlite_path: ledger },
      });
    });

    afterAll(async () => {
      await Promise.all(gateways.map((gateway) => gateway.kill()));
    });

    const gatewayEnv = (key: string) => ({
      MCP_SERVER_CONFIG: config,
      MCP_SERVER_LEDGER_SQLITE_PATH: ledger,
      MCP_API_KEY: key,
    });

    it('serves the holder of the printed key as alice', async () => {
      const gateway = await spawnReady({ env: gatewayEnv(alice.key) });
      gateways.push(gateway);
      await gateway.initialize();
      const call = await gateway.request('tools/call', {
        name: 'inventory_search',
        arguments: { query: 'tent' },
      });
      expect(call).toHaveProperty('result');
      expect((await gateway.endInput()).code).toBe(0);
      expect(ledgerRows(ledger, 'alice')).toEqual([
        expect.objectContaining({ method: 'tools/call', target: 'inventory_search' }),
      ]);
    }, 90_000);

    it('refuses to start with a key of its own that the entry does not hold', async () => {
      const other = await createKey('--client', 'alice');
      const gateway = new StdioGatewayProcess({ env: gatewayEnv(other.key) });
      gateways.push(gateway);
      const exit = await gateway.exited;
      expect(exit.code).not.toBe(0);
      expect(gateway.stderr).toContain('MCP_API_KEY');
      expect(gateway.stdoutLines).toEqual([]);
    }, 90_000);
  });
});
