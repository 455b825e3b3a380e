import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { join } from 'node:path';
import { RoundRobinProxy } from '../../bench/shared/round-robin-proxy';
import { HttpGatewayChild } from '../support/http-child';
import { makeTempDir, removeDir } from '../support/skills-dir';

/**
 * #17: MCP 2026-07-28 needs no shared sessions. Two gateway processes with
 * nothing shared (in-process state, a ledger each) behind a balancer without
 * affinity (RoundRobinProxy: every request to the next one): the SDK v2
 * client's requests alternate between them and all succeed.
 */
describe('stateless requests across two replicas that share nothing', () => {
  let dir: string;
  let replicas: HttpGatewayChild[];
  let proxy: RoundRobinProxy;

  beforeAll(async () => {
    dir = makeTempDir('stateless-replicas');
    const env = (name: string) => ({
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: '0',
      MCP_SERVER_LEDGER_SQLITE_PATH: join(dir, `${name}.db`),
    });
    replicas = await Promise.all([
      HttpGatewayChild.start(env('a')),
      HttpGatewayChild.start(env('b')),
    ]);
    proxy = await RoundRobinProxy.start(replicas.map((replica) => replica.baseUrl));
  }, 180_000);

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all((replicas ?? []).map((replica) => replica.stop()));
    removeDir(dir);
  }, 60_000);

  it('serves discovery, lists and calls from either replica', async () => {
    const client = new Client(
      { name: 'stateless-replicas', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`)));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('inventory_search');
      for (let i = 0; i < 6; i++) {
        const result = await client.callTool({
          name: 'inventory_search',
          arguments: { query: 'tent', limit: 1 },
        });
        expect(result.isError).toBeFalsy();
        const [block] = result.content as Array<{ type: string; text?: string }>;
        expect(JSON.parse(block.text ?? '{}')).toMatchObject({ returned: 1 });
      }
    } finally {
      await client.close();
    }
    const served = proxy.served.map((request) => request.backend);
    expect(new Set(served)).toEqual(new Set([0, 1]));
    expect(proxy.served.every((request) => request.status === 200)).toBe(true);
    // No session was ever minted: nothing for a balancer to keep affinity with.
    expect(proxy.served.some((request) => request.method !== 'POST')).toBe(false);
  }, 60_000);
});
