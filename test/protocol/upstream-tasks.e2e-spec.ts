import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { UpstreamToolsPublisher } from '../../src/upstreams/upstream-tools.publisher';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { createTask, modernRequest, TaskView, waitForTask } from '../support/modern-task-requests';
import { rpcError } from '../support/rpc-error';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import { REPO_ROOT } from '../support/stdio-process';
import { taskUpstreamFile } from '../support/task-upstream-record';
import { EVERYTHING_ENTRY_PATH } from '../support/upstream-records';

/**
 * Upstream tools by their own task declaration (#19): an upstream tool whose
 * execution.taskSupport is 'required' or 'optional' runs as a gateway task
 * for 2026-07-28 clients that accept tasks, and the gateway's own call to the
 * upstream is task-augmented and followed to its end. Upstreams: the npm
 * server-everything (its simulate-research-query requires a task) and the
 * SDK task fixture (test/fixtures/upstreams/task-upstream.ts), over stdio.
 */
const RESEARCH = 'every__simulate-research-query';
const TASK_ONLY = 'chores__task_only';
const STEPWISE = 'chores__stepwise';
const ENDLESS = 'chores__endless';
const TASK_LOG = 'chores__task_log';
const MISSING_CAPABILITY = -32021;

interface TaskLog {
  created: Record<string, number>;
  cancelled: number;
  running: number;
}

let dir: string;
let gateway: HttpGatewayHandle;
const handles: SdkClientHandle[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'owlclaw-upstream-tasks-'));
  writeFileSync(join(dir, 'chores.json'), JSON.stringify(taskUpstreamFile('chores')));
  writeFileSync(
    join(dir, 'every.json'),
    JSON.stringify({
      version: 1,
      server_id: 'every',
      transport: 'stdio',
      stdio: { command: process.execPath, args: [EVERYTHING_ENTRY_PATH, 'stdio'], cwd: REPO_ROOT },
      allowed_tools: ['simulate-research-query'],
    }),
  );
  gateway = await startHttpGateway({ config: { upstreams: { registry_dir: dir } } });
  await gateway.app.get(UpstreamToolsPublisher).settled();
}, 120_000);

afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.dispose()));
});

afterAll(async () => {
  await gateway?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function textOf(result: unknown): string {
  return (result as CallToolResult).content
    .map((item) => (item.type === 'text' ? item.text : ''))
    .join('\n');
}

/** The task fixture's own account, asked through the gateway (a plain tool). */
async function taskLog(): Promise<TaskLog> {
  const reply = await modernRequest(gateway.baseUrl, 'upstream-tasks-log', 'tools/call', {
    name: TASK_LOG,
    arguments: {},
  });
  if (reply.result === undefined) throw new Error(`task_log failed: ${JSON.stringify(reply)}`);
  return JSON.parse(textOf(reply.result)) as TaskLog;
}

async function taskLogUntil(reached: (log: TaskLog) => boolean, what: string): Promise<TaskLog> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const log = await taskLog();
    if (reached(log)) return log;
    await delay(100);
  }
  throw new Error(`the task upstream never showed ${what}: ${JSON.stringify(await taskLog())}`);
}

const ended = (task: TaskView) => ['completed', 'failed', 'cancelled'].includes(task.status);

describe('upstream tools that declare task support, through the gateway', () => {
  it("runs server-everything's task-required tool as a gateway task, to the upstream task's result", async () => {
    const clientId = 'upstream-tasks-research';
    const created = await createTask(gateway.baseUrl, clientId, RESEARCH, { topic: 'owls' });
    expect(created.status).toBe('working');
    const task = await waitForTask(gateway.baseUrl, clientId, created.taskId, ended, 'its end');
    expect(task.status).toBe('completed');
    expect(textOf(task.result)).toContain('# Research Report: owls');
  }, 90_000);

  it("runs the fixture's required and optional task tools as gateway tasks, with their results", async () => {
    const clientId = 'upstream-tasks-fixture';
    const only = await createTask(gateway.baseUrl, clientId, TASK_ONLY, { text: 'hoot' });
    const steps = await createTask(gateway.baseUrl, clientId, STEPWISE, { steps: 3, stepMs: 100 });
    const [onlyDone, stepsDone] = await Promise.all(
      [only, steps].map((task) =>
        waitForTask(gateway.baseUrl, clientId, task.taskId, ended, 'its end'),
      ),
    );
    expect(onlyDone).toMatchObject({ status: 'completed' });
    expect(textOf(onlyDone.result)).toBe('task said hoot');
    expect(stepsDone).toMatchObject({
      status: 'completed',
      result: { structuredContent: { steps: 3 } },
    });
  }, 90_000);

  it('refuses a task-required upstream tool to a session-based client (-32021) and calls a task-optional one for it plainly', async () => {
    const handle = await connectSdkClient({
      kind: 'streamable-http',
      baseUrl: gateway.baseUrl,
      headers: { 'X-MCP-Client-ID': 'upstream-tasks-legacy' },
    });
    handles.push(handle);
    const { client } = handle;
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining([RESEARCH, TASK_ONLY, STEPWISE]));
    for (const name of [RESEARCH, TASK_ONLY]) {
      const refusal = await rpcError(
        client.callTool({ name, arguments: { topic: 'x', text: 'x' } }),
      );
      expect(refusal.code).toBe(MISSING_CAPABILITY);
    }
    const before = await taskLog();
    const result = await client.callTool({ name: STEPWISE, arguments: { steps: 2, stepMs: 50 } });
    expect(textOf(result)).toBe('counted 2 steps');
    // The gateway still followed an upstream task for it: the plain caller only saw the result.
    expect((await taskLog()).created.stepwise).toBe((before.created.stepwise ?? 0) + 1);
  }, 90_000);

  it('refuses a task-required upstream tool to a 2026-07-28 client that does not accept tasks', async () => {
    const reply = await modernRequest(
      gateway.baseUrl,
      'upstream-tasks-no-ext',
      'tools/call',
      { name: TASK_ONLY, arguments: { text: 'x' } },
      false,
    );
    expect(reply.error?.code).toBe(MISSING_CAPABILITY);
  });

  it("shows the upstream task's status on the gateway task, and cancelling the gateway task cancels the upstream task", async () => {
    const clientId = 'upstream-tasks-cancel';
    const before = await taskLog();
    const created = await createTask(gateway.baseUrl, clientId, ENDLESS, { note: 'hunting voles' });
    await waitForTask(
      gateway.baseUrl,
      clientId,
      created.taskId,
      (task) => task.statusMessage?.includes('hunting voles') === true,
      'the upstream status',
    );
    const cancel = await modernRequest(gateway.baseUrl, clientId, 'tasks/cancel', {
      taskId: created.taskId,
    });
    expect(cancel.error).toBeUndefined();
    const task = await waitForTask(gateway.baseUrl, clientId, created.taskId, ended, 'its end');
    expect(task.status).toBe('cancelled');
    // tasks/cancel reached the upstream, and its task's work stopped.
    await taskLogUntil(
      (log) => log.cancelled === before.cancelled + 1 && log.running === 0,
      'the cancellation',
    );
  }, 90_000);
});
