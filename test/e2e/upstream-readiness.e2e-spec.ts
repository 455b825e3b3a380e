import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { compiledEchoUpstreamPath } from '../support/compiled-echo-upstream';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { REPO_ROOT } from '../support/stdio-process';

/**
 * /health/ready and upstreams (#16 items 1 and 5): a `required` upstream that
 * is not serving fails readiness and is named; any other broken upstream only
 * shows in the detail. Registry files change while the gateway runs.
 */
let dir: string;
let gateway: HttpGatewayHandle;

interface Readiness {
  status: number;
  upstreams?: {
    status: string;
    servers: number;
    serving: number;
    reason?: string;
    not_serving: Array<{ server_id: string; required: boolean; listed: boolean }>;
  };
}

/** Polls until `check` holds or the wait is over; the readiness answer comes from a real request each time. */
async function eventuallyAsync(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

async function readiness(): Promise<Readiness> {
  const response = await fetch(`${gateway.baseUrl}/health/ready`);
  const body = (await response.json()) as { details?: { upstreams?: Readiness['upstreams'] } };
  return { status: response.status, upstreams: body.details?.upstreams };
}

function writeRecord(serverId: string, required: boolean, command: string[]): void {
  writeFileSync(
    join(dir, `${serverId}.json`),
    JSON.stringify({
      version: 1,
      server_id: serverId,
      transport: 'stdio',
      stdio: {
        command: command[0],
        args: command.slice(1),
        env: { NODE_PATH: join(REPO_ROOT, 'node_modules') },
      },
      allowed_tools: ['echo'],
      required,
    }),
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'owlclaw-upstream-ready-'));
  writeRecord('echo', true, [process.execPath, compiledEchoUpstreamPath()]);
  // Not required: a command that exits at once never serves, and must not fail readiness.
  writeRecord('broken', false, ['/bin/sh', '-c', 'exit 3']);
  gateway = await startHttpGateway({
    config: {
      upstreams: { registry_dir: dir, restart_max_failures: 1, tools_cache_failure_ttl_seconds: 1 },
    },
  });
  await gateway.app.get(UpstreamToolsPublisher).settled();
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('readiness with upstreams', () => {
  it('is ready while every required upstream serves, naming the broken optional one', async () => {
    const ready = await readiness();
    expect(ready.status).toBe(200);
    expect(ready.upstreams).toMatchObject({ status: 'up', servers: 2, serving: 1 });
    expect(ready.upstreams?.not_serving).toEqual([
      expect.objectContaining({ server_id: 'broken', required: false, listed: false }),
    ]);
  });

  it('is not ready while a required upstream does not serve, and is again once it is removed', async () => {
    writeRecord('needed', true, ['/bin/sh', '-c', 'exit 4']);
    let seen: Readiness | undefined;
    expect(
      await eventuallyAsync(async () => {
        seen = await readiness();
        return seen.status === 503;
      }, 20_000),
    ).toBe(true);
    expect(seen?.upstreams).toMatchObject({ status: 'down', servers: 3, serving: 1 });
    expect(seen?.upstreams?.reason).toContain('needed');
    expect(seen?.upstreams?.reason).not.toContain('broken');

    unlinkSync(join(dir, 'needed.json'));
    expect(await eventuallyAsync(async () => (await readiness()).status === 200, 20_000)).toBe(
      true,
    );
  });
});
