/**
 * Upstream progress flood: every notifications/progress an upstream sent
 * during one call was relayed to the client as it came, 50,000 of them from
 * a single call if the upstream liked. Now one call's reports reach the
 * client at most once per upstreams.progress_interval_ms, the latest one
 * replacing those between, and the last value is sent before the answer. A
 * real stdio upstream (the SDK fixture) sends a burst; the interval is set
 * far beyond the burst, so the bound is structural: the first report and
 * the latest one at the answer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import { REPO_ROOT } from '../support/stdio-process';
import { TYPESCRIPT_LOADER } from '../support/typescript-loader';

const ECHO_UPSTREAM = join(REPO_ROOT, 'test', 'fixtures', 'upstreams', 'echo-upstream.ts');
const BURST = 5_000;

function progressOf(messages: JSONRPCMessage[]): number[] {
  return messages.flatMap((message) =>
    'method' in message && message.method === 'notifications/progress'
      ? [Number(message.params?.progress)]
      : [],
  );
}

describe('upstream progress is coalesced per call', () => {
  let dir: string;
  let gateway: HttpGatewayHandle;
  let handle: SdkClientHandle;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'owlclaw-sec-progress-'));
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
        allowed_tools: ['burst'],
        budgets: { tool_timeout_ms: 30_000 },
      }),
    );
    gateway = await startHttpGateway({
      config: {
        upstreams: { registry_dir: dir, progress_interval_ms: 60_000 },
        // No heartbeat of the gateway's own adds to the count.
        tools: { progress_interval_seconds: 3_600 },
      },
    });
    await gateway.app.get(UpstreamToolsPublisher).settled();
    handle = await connectSdkClient({ kind: 'streamable-http', baseUrl: gateway.baseUrl });
  }, 60_000);

  afterAll(async () => {
    await handle?.dispose();
    await gateway?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`relays the first report and the latest at the answer, not all ${BURST}`, async () => {
    const result = await handle.client.callTool(
      { name: 'echo__burst', arguments: { count: BURST } },
      undefined,
      { onprogress: () => undefined },
    );
    expect(result.content).toEqual([{ type: 'text', text: String(BURST) }]);
    const relayed = progressOf(handle.wire.received);
    // The second is the latest the gateway had heard when the answer came: the SDK drops reports
    // read in the same chunk as the answer, so it may fall short of BURST (the unit spec pins flush).
    expect(relayed).toHaveLength(2);
    expect(relayed[0]).toBe(1);
    expect(relayed[1]).toBeGreaterThan(1);
    expect(relayed[1]).toBeLessThanOrEqual(BURST);
  });
});
