import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpstreamPool } from '../../src/upstreams/upstream.pool';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { writeEchoRegistryFile } from '../support/compiled-echo-upstream';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { eventually } from '../support/process-table';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';

/**
 * The upstream series of #16 item 10, scraped from /metrics of a real HTTP
 * gateway while the SDK client calls the fixture upstream through it.
 */
let dir: string;
let gateway: HttpGatewayHandle;
let handle: SdkClientHandle;
let client: Client;

const scrape = async (): Promise<string> => (await fetch(`${gateway.baseUrl}/metrics`)).text();

/** The value of one series line, e.g. `mcp_upstream_children 1`, or undefined when absent. */
function sample(metrics: string, series: string): number | undefined {
  const line = metrics.split('\n').find((each) => each.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'owlclaw-upstream-metrics-'));
  writeEchoRegistryFile(dir, { budgets: { max_tool_output_bytes: 2048 } });
  gateway = await startHttpGateway({
    config: {
      upstreams: {
        registry_dir: dir,
        restart_backoff_base_ms: 10,
        restart_backoff_max_ms: 20,
      },
    },
  });
  await gateway.app.get(UpstreamToolsPublisher).settled();
  handle = await connectSdkClient({ kind: 'streamable-http', baseUrl: gateway.baseUrl });
  client = handle.client;
}, 120_000);

afterAll(async () => {
  await handle?.dispose();
  await gateway?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('upstream metrics on /metrics', () => {
  it('count connects, calls by tool and outcome, output bytes before cutting, state and children', async () => {
    await client.callTool({ name: 'echo__echo', arguments: { text: 'hi' } });
    await client.callTool({ name: 'echo__flood', arguments: { bytes: 10_000 } });
    let metrics = await scrape();
    expect(sample(metrics, 'mcp_upstream_connect_total{server="echo",outcome="success"}')).toBe(1);
    expect(
      sample(metrics, 'mcp_upstream_calls_total{server="echo",tool="echo",outcome="success"}'),
    ).toBe(1);
    expect(
      sample(metrics, 'mcp_upstream_calls_total{server="echo",tool="flood",outcome="success"}'),
    ).toBe(1);
    expect(sample(metrics, 'mcp_upstream_call_duration_seconds_count{server="echo"}')).toBe(2);
    // The flood result was cut to 2 KiB, but the histogram saw its full size.
    expect(sample(metrics, 'mcp_upstream_output_bytes_bucket{le="4096",server="echo"}')).toBe(1);
    expect(sample(metrics, 'mcp_upstream_output_bytes_count{server="echo"}')).toBe(2);
    expect(sample(metrics, 'mcp_upstream_output_bytes_sum{server="echo"}')).toBeGreaterThan(10_000);
    expect(sample(metrics, 'mcp_upstream_state{server="echo",state="connected"}')).toBe(1);
    expect(sample(metrics, 'mcp_upstream_state{server="echo",state="down"}')).toBe(0);
    expect(sample(metrics, 'mcp_upstream_children')).toBe(1);

    await client.callTool({ name: 'echo__crash', arguments: {} }).catch(() => undefined);
    const connection = gateway.app.get(UpstreamPool).connection('echo')!;
    expect(await eventually(() => connection.connected && connection.status.restarts === 1)).toBe(
      true,
    );
    metrics = await scrape();
    expect(
      sample(
        metrics,
        'mcp_upstream_calls_total{server="echo",tool="crash",outcome="mcp_unavailable"}',
      ),
    ).toBe(1);
    expect(sample(metrics, 'mcp_upstream_connect_total{server="echo",outcome="success"}')).toBe(2);
    expect(sample(metrics, 'mcp_upstream_state{server="echo",state="connected"}')).toBe(1);
    expect(sample(metrics, 'mcp_upstream_children')).toBe(1);
  });
});
