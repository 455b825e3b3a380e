import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { relayUpstreamFile } from '../support/relay-upstream-record';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';

/**
 * The per-server tools/list cache: with a 1 s TTL a tool the upstream adds
 * without telling anyone shows up once the entry expires, and a server whose
 * first listing fails is listed again after the failure TTL. initialize and
 * tools/list keep working meanwhile.
 */

let dir: string;
let gateway: HttpGatewayHandle;
let handle: SdkClientHandle;
let client: Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'owlclaw-list-cache-'));
  writeFileSync(join(dir, 'cached.json'), JSON.stringify(relayUpstreamFile('cached')));
  // Its first tools/list fails; the retry after the failure TTL works.
  writeFileSync(
    join(dir, 'flaky.json'),
    JSON.stringify(relayUpstreamFile('flaky', {}, { RELAY_FAIL_LISTS: '1' })),
  );
  gateway = await startHttpGateway({
    config: {
      upstreams: {
        registry_dir: dir,
        tools_cache_ttl_seconds: 1,
        tools_cache_failure_ttl_seconds: 1,
      },
    },
  });
  handle = await connectSdkClient({ kind: 'streamable-http', baseUrl: gateway.baseUrl });
  client = handle.client;
}, 120_000);

afterAll(async () => {
  await handle?.dispose();
  await gateway?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function toolNames(): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

/** Polls tools/list until `name` is there; generous, never a timing assertion. */
async function waitForTool(name: string, withinMs = 15_000): Promise<string[]> {
  const until = Date.now() + withinMs;
  let names = await toolNames();
  while (!names.includes(name) && Date.now() < until) {
    await delay(100);
    names = await toolNames();
  }
  return names;
}

describe('per-server tools/list cache', () => {
  it('keeps a server whose listing failed out, then lists it again after the failure TTL', async () => {
    await gateway.app.get(UpstreamToolsPublisher).settled();
    // The failed listing never failed initialize or tools/list.
    expect(await toolNames()).toContain('cached__echo');
    expect(await waitForTool('flaky__echo')).toContain('flaky__echo');
    const served = await client.callTool({ name: 'flaky__list_count', arguments: {} });
    // One failed listing and at least one retry.
    expect(Number((served.content as Array<{ text: string }>)[0].text)).toBeGreaterThanOrEqual(2);
  });

  it('picks up a tool the upstream added without list_changed once the TTL expires', async () => {
    await client.callTool({
      name: 'cached__add_tool',
      arguments: { name: 'quiet', notify: false },
    });
    expect(await waitForTool('cached__quiet')).toContain('cached__quiet');
    const result = await client.callTool({ name: 'cached__quiet', arguments: {} });
    // The fixture answers an added tool it has no behaviour for with isError, proving the call reached it.
    expect(result.content).toEqual([{ type: 'text', text: 'unknown tool quiet' }]);
  });
});
