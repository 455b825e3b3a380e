/**
 * One resources/read of a skill:// URI of thousands of segments froze the
 * event loop: visibility built every folder's URI (quadratic) and matched
 * each against backtracking glob regexes (a deny glob with a few wildcards
 * made it exponential; /health timed out, SIGTERM went unheard). Now every
 * method that takes a resource URI refuses one past limits.resource_uri_*
 * before any lookup, visibility judges all folders in one pass, and globs
 * match in O(pattern x text). Real gateway child, SDK client over HTTP.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { HttpGatewayChild } from '../support/http-child';
import { rpcError } from '../support/rpc-error';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import { makeTempDir, removeDir, skillMarkdown, writeSkill } from '../support/skills-dir';
import { readLedgerRows } from '../support/sqlite-ledger';
import { tempLedgerPath } from '../support/test-defaults';
import { httpRequest, RawAnswer } from '../robustness/support/limits-client';
import { refusals } from './support/limit-refusals';

const CLIENT = 'uri-attacker';
/** The reported shape: `skill://` + `a/` x N + `x`. */
const attack = (segments: number) => `skill://${'a/'.repeat(segments)}x`;
/** Fifteen wildcards, each able to take any run of `a`: exponential for a backtracking matcher. */
const FIFTEEN_WILDCARDS = `skill://${'*a'.repeat(14)}*b`;
const DENY = ['skill://*/*/*private*', FIFTEEN_WILDCARDS];

/** 32 segments and 2,048 characters, both limits exactly: `skill://docs/handbook/aaa.../x`. */
function justUnderLimits(): string {
  const head = 'skill://docs/handbook/';
  const folders = 29;
  const room = 2048 - head.length - 'x'.length - folders;
  const sizes = Array.from(
    { length: folders },
    (_, i) => Math.floor(room / folders) + (i < room % folders ? 1 : 0),
  );
  return `${head}${sizes.map((size) => `${'a'.repeat(size)}/`).join('')}x`;
}

interface LedgerRow {
  method: string;
  target: string;
  arguments: string | null;
  outcome: string;
  error_code: number | null;
}

describe('resource URI freeze: one resources/read of a deep skill:// URI', () => {
  let gateway: HttpGatewayChild;
  let handle: SdkClientHandle;
  let client: Client;
  let skillsDir: string;
  const ledgerPath = tempLedgerPath();

  beforeAll(async () => {
    skillsDir = makeTempDir('resource-uri-freeze');
    writeSkill(skillsDir, 'docs', 'handbook', {
      'SKILL.md': skillMarkdown({ name: 'handbook', description: 'Handbook.' }, 'body'),
      'refs/private-notes.md': 'secret',
    });
    gateway = await HttpGatewayChild.start({
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: '0',
      MCP_SERVER_LEDGER_SQLITE_PATH: ledgerPath,
      MCP_SERVER_RESOURCES_SKILLS_DIR: skillsDir,
      MCP_SERVER_GOVERNANCE_VISIBILITY_DENY: DENY.join(','),
    });
    handle = await connectSdkClient({
      kind: 'streamable-http',
      baseUrl: gateway.baseUrl,
      headers: { 'x-mcp-client-id': CLIENT },
    });
    client = handle.client;
  }, 120_000);

  afterAll(async () => {
    await handle?.dispose();
    await gateway?.stop();
    removeDir(skillsDir);
  }, 30_000);

  /** Fires /health every 50 ms while `work` runs; every probe must be answered. */
  async function whileProbingHealth<T>(work: Promise<T>): Promise<T> {
    const probes: Array<Promise<RawAnswer>> = [];
    let done = false;
    const result = work.finally(() => (done = true));
    do {
      probes.push(httpRequest(`${gateway.baseUrl}/health`, { timeoutMs: 20_000 }));
      await new Promise((resolve) => setTimeout(resolve, 50));
    } while (!done && probes.length < 200);
    const value = await result;
    for (const probe of await Promise.all(probes)) expect(probe.status).toBe(200);
    return value;
  }

  const expectLimit = (error: McpError, limit: string, max: number) => {
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(`limits.${limit} (${max})`);
    expect(error.data).toMatchObject({ limit: `limits.${limit}`, max });
  };

  it('refuses the reported 12.8 KB and 51 KB URIs naming limits.resource_uri_max_chars, at once', async () => {
    const before = await refusals(gateway.baseUrl, 'resource_uri_max_chars');
    const errors = await whileProbingHealth(
      Promise.all([6_400, 25_600].map((n) => rpcError(client.readResource({ uri: attack(n) })))),
    );
    for (const error of errors) expectLimit(error, 'resource_uri_max_chars', 2048);
    expect(await refusals(gateway.baseUrl, 'resource_uri_max_chars')).toBe(before + 2);
  });

  it('refuses a short URI of more than 32 segments naming limits.resource_uri_max_segments', async () => {
    const error = await rpcError(client.readResource({ uri: attack(40) }));
    expectLimit(error, 'resource_uri_max_segments', 32);
  });

  it('answers a URI at both limits under a three-wildcard and a fifteen-wildcard deny, /health answering', async () => {
    const uri = justUnderLimits();
    expect(uri).toHaveLength(2048);
    expect(uri.split('/').length - 2).toBe(32);
    const errors = await whileProbingHealth(
      Promise.all([
        rpcError(client.readResource({ uri })),
        rpcError(client.readResource({ uri: `${uri.slice(0, -1)}b` })),
      ]),
    );
    // Neither exists: answered as unknown, the fifteen-wildcard deny judged without a freeze.
    for (const error of errors) expect(error.code).toBe(-32002);
    // The deny rules still hide what they name.
    const denied = await rpcError(
      client.readResource({ uri: 'skill://docs/handbook/refs/private-notes.md' }),
    );
    expect(denied.code).toBe(-32002);
    expect(await client.readResource({ uri: 'skill://docs/handbook' })).toMatchObject({
      contents: [expect.objectContaining({ text: expect.stringContaining('body') })],
    });
  });

  it('refuses an over-long URI on every other method that takes one', async () => {
    const uri = attack(25_600);
    const any = z.object({}).passthrough();
    const calls: Array<[string, Record<string, unknown>]> = [
      ['resources/subscribe', { uri }],
      ['resources/unsubscribe', { uri }],
      ['skills/get', { uri }],
      ['resources/directory/read', { uri }],
      [
        'completion/complete',
        { ref: { type: 'ref/resource', uri }, argument: { name: 'path', value: '' } },
      ],
    ];
    for (const [method, params] of calls) {
      const error = await rpcError(client.request({ method, params }, any));
      expect([method, error.code, error.data]).toEqual([
        method,
        -32602,
        expect.objectContaining({
          limit:
            method === 'resources/subscribe'
              ? 'limits.subscription_uri_max_chars'
              : 'limits.resource_uri_max_chars',
        }),
      ]);
    }
  });

  it('ledgers every refused read with a clipped target and no arguments, never the whole URI', () => {
    const reads = readLedgerRows<LedgerRow>(ledgerPath, CLIENT).filter(
      (row) => row.method === 'resources/read',
    );
    const refused = reads.filter((row) => row.error_code === -32602);
    expect(refused).toHaveLength(3);
    for (const row of refused) {
      expect(row.target.length).toBeLessThanOrEqual(257);
      expect(row.target.startsWith('skill://a/a/')).toBe(true);
      expect(row.arguments ?? '').toMatch(/^"\[not recorded: over limits\.resource_uri_max_/);
    }
    // What passed the limits is kept whole: it is at most 2,048 characters.
    expect(Math.max(...reads.map((row) => row.target.length))).toBe(2048);
  });

  it('stops gracefully on SIGTERM after all of it', async () => {
    await handle.dispose();
    await gateway.stop();
    // 0 is an orderly stop; a SIGKILL after the 10 s grace would leave no exit code.
    expect(await gateway.exited).toBe(0);
  });
});
