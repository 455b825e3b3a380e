import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markedEchoUpstreamCopy } from '../support/compiled-echo-upstream';
import { eventually, liveGroupMembers, liveProcessesWith } from '../support/process-table';
import { CLI_ENTRY, REPO_ROOT } from '../support/stdio-process';
import { testGatewayEnv } from '../support/test-defaults';

/**
 * No upstream child outlives the gateway (#16 item 3): the real CLI in stdio
 * mode runs the fixture nested under `sh -c` (as npx nests node), and after
 * each way the gateway can end, the process table holds none of its processes.
 */
describe('upstream children die with the gateway', () => {
  // Turns SIGUSR2 into an uncaught exception inside the gateway, which has no handler for it.
  const crashHook = join(mkdtempSync(join(tmpdir(), 'owlclaw-crash-')), 'crash-on-usr2.js');
  writeFileSync(
    crashHook,
    "process.on('SIGUSR2', () => setImmediate(() => { throw new Error('simulated gateway crash'); }));\n",
  );

  interface RunningGateway {
    gateway: ChildProcessWithoutNullStreams;
    entry: string;
    group: number;
    stderr: () => string;
  }

  async function startGateway(preload?: string): Promise<RunningGateway> {
    const entry = markedEchoUpstreamCopy();
    const registry = mkdtempSync(join(tmpdir(), 'owlclaw-registry-'));
    writeFileSync(
      join(registry, 'marked.json'),
      JSON.stringify({
        version: 1,
        server_id: 'marked',
        transport: 'stdio',
        stdio: {
          command: '/bin/sh',
          args: ['-c', `"${process.execPath}" "${entry}"; exit $?`],
          env: { NODE_PATH: join(REPO_ROOT, 'node_modules') },
        },
        allowed_tools: ['*'],
        warm: true,
      }),
    );
    const gateway = spawn(
      process.execPath,
      [
        ...(preload ? ['-r', preload] : []),
        CLI_ENTRY,
        'mcp-server',
        'start',
        '--transport',
        'stdio',
      ],
      {
        cwd: REPO_ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          ...testGatewayEnv(),
          MCP_SERVER_UPSTREAMS_REGISTRY_DIR: registry,
        },
      },
    );
    let stderr = '';
    gateway.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    gateway.stdout.resume();
    const fixtureUp = await eventually(
      () => liveProcessesWith(entry).some((row) => row.cmdline.startsWith(process.execPath)),
      20_000,
    );
    if (!fixtureUp)
      throw new Error(`the fixture upstream never started; gateway stderr:\n${stderr}`);
    const fixture = liveProcessesWith(entry).find((row) =>
      row.cmdline.startsWith(process.execPath),
    )!;
    return { gateway, entry, group: fixture.pgid, stderr: () => stderr };
  }

  async function expectNothingLeft(running: RunningGateway): Promise<void> {
    const exited = new Promise((resolve) => running.gateway.once('exit', resolve));
    if (running.gateway.exitCode === null && running.gateway.signalCode === null) await exited;
    const clean = await eventually(
      () =>
        liveProcessesWith(running.entry).length === 0 &&
        liveGroupMembers(running.group).length === 0,
      10_000,
    );
    if (!clean) {
      throw new Error(
        `left behind: ${JSON.stringify(liveGroupMembers(running.group))}\n${running.stderr().slice(-2000)}`,
      );
    }
    expect(liveProcessesWith(running.entry)).toEqual([]);
  }

  it('runs the upstream in a group of its own, apart from the gateway', async () => {
    const running = await startGateway();
    expect(running.group).not.toBe(running.gateway.pid);
    expect(liveGroupMembers(running.group).length).toBeGreaterThanOrEqual(3);
    running.gateway.kill('SIGTERM');
    await expectNothingLeft(running);
  });

  it.each(['SIGTERM', 'SIGINT', 'SIGKILL'] as const)('after %s', async (signal) => {
    const running = await startGateway();
    running.gateway.kill(signal);
    await expectNothingLeft(running);
  });

  it('after stdin EOF', async () => {
    const running = await startGateway();
    running.gateway.stdin.end();
    await expectNothingLeft(running);
  });

  it('after an uncaught exception ends the gateway', async () => {
    const running = await startGateway(crashHook);
    const exit = new Promise<number | null>((resolve) =>
      running.gateway.once('exit', (code) => resolve(code)),
    );
    running.gateway.kill('SIGUSR2');
    expect(await exit).not.toBe(0);
    expect(running.stderr()).toContain('simulated gateway crash');
    await expectNothingLeft(running);
  });
});
