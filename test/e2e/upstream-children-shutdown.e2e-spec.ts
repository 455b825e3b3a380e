import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markedCrashUpstreamCopy } from '../support/crash-upstream-record';
import { eventually, liveGroupMembers, liveProcessesWith } from '../support/process-table';
import { CLI_ENTRY, REPO_ROOT } from '../support/stdio-process';
import { testGatewayEnv } from '../support/test-defaults';

/**
 * No upstream child outlives the gateway (#16 item 3): the real CLI in stdio
 * mode runs the plain-Node crash fixture nested under `sh -c` (as npx nests
 * node), and after each way the gateway can end, the process table holds none
 * of its processes. Every wait is a poll of up to WAIT_MS; whatever a failed
 * test left running (gateway, fixture group) is killed after it.
 */
const WAIT_MS = 60_000;
const TEST_TIMEOUT_MS = 3 * WAIT_MS;

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

  /** What this test started, for the clean-up after it. */
  const started: Array<{ gateway: ChildProcessWithoutNullStreams; entry: string }> = [];

  afterEach(async () => {
    for (const { gateway, entry } of started.splice(0)) {
      if (gateway.exitCode === null && gateway.signalCode === null) {
        const exited = new Promise((resolve) => gateway.once('exit', resolve));
        gateway.kill('SIGKILL');
        await exited;
      }
      // By pid, not by group: without setsid the fixture would share Jest's own group.
      for (const row of liveProcessesWith(entry)) {
        try {
          process.kill(row.pid, 'SIGKILL');
        } catch {
          // Gone already.
        }
      }
    }
  });

  const exitedOf = (gateway: ChildProcessWithoutNullStreams): boolean =>
    gateway.exitCode !== null || gateway.signalCode !== null;

  async function startGateway(preload?: string): Promise<RunningGateway> {
    const entry = markedCrashUpstreamCopy();
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
    started.push({ gateway, entry });
    let stderr = '';
    gateway.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    gateway.stdout.resume();
    const fixtureUp = await eventually(
      () => liveProcessesWith(entry).some((row) => row.cmdline.startsWith(process.execPath)),
      WAIT_MS,
    );
    if (!fixtureUp)
      throw new Error(`the fixture upstream never started; gateway stderr:\n${stderr}`);
    const fixture = liveProcessesWith(entry).find((row) =>
      row.cmdline.startsWith(process.execPath),
    )!;
    return { gateway, entry, group: fixture.pgid, stderr: () => stderr };
  }

  async function expectNothingLeft(running: RunningGateway): Promise<void> {
    if (!(await eventually(() => exitedOf(running.gateway), WAIT_MS))) {
      throw new Error(`the gateway did not exit; stderr:\n${running.stderr().slice(-2000)}`);
    }
    const clean = await eventually(
      () =>
        liveProcessesWith(running.entry).length === 0 &&
        liveGroupMembers(running.group).length === 0,
      WAIT_MS,
    );
    if (!clean) {
      throw new Error(
        `left behind: ${JSON.stringify(liveGroupMembers(running.group))}\n${running.stderr().slice(-2000)}`,
      );
    }
    expect(liveProcessesWith(running.entry)).toEqual([]);
  }

  it(
    'runs the upstream in a group of its own, apart from the gateway',
    async () => {
      const running = await startGateway();
      expect(running.group).not.toBe(running.gateway.pid);
      expect(liveGroupMembers(running.group).length).toBeGreaterThanOrEqual(3);
      running.gateway.kill('SIGTERM');
      await expectNothingLeft(running);
    },
    TEST_TIMEOUT_MS,
  );

  it.each(['SIGTERM', 'SIGINT', 'SIGKILL'] as const)(
    'after %s',
    async (signal) => {
      const running = await startGateway();
      running.gateway.kill(signal);
      await expectNothingLeft(running);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'after stdin EOF',
    async () => {
      const running = await startGateway();
      running.gateway.stdin.end();
      await expectNothingLeft(running);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'after an uncaught exception ends the gateway',
    async () => {
      const running = await startGateway(crashHook);
      running.gateway.kill('SIGUSR2');
      expect(await eventually(() => exitedOf(running.gateway), WAIT_MS)).toBe(true);
      expect(running.gateway.exitCode).not.toBe(0);
      // stderr may still be draining when the exit is seen.
      await eventually(() => running.stderr().includes('simulated gateway crash'), WAIT_MS);
      expect(running.stderr()).toContain('simulated gateway crash');
      await expectNothingLeft(running);
    },
    TEST_TIMEOUT_MS,
  );
});
