import { SqliteDatabase } from '../../src/ledger/sqlite-driver';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TASK_GATES_ENV } from '../fixtures/task-runs-fixture.capability';
import { runsStarted } from '../support/fixture-task-runs';
import { HttpGatewayChild } from '../support/http-child';
import { waitUntil } from '../support/sdk-clients';
import { makeTempDir, removeDir } from '../support/skills-dir';
import { readLedgerRows } from '../support/sqlite-ledger';
import { resultText, TaskClient } from '../support/task-client';

/**
 * Tasks on the embedded default (state memory: tasks.db beside the SQLite
 * ledger) across a SIGKILL of the one gateway process: a new process on the
 * same data directory runs again the task whose run died (its second
 * attempt) and starts the one that was still queued, or, with
 * `tasks.max_attempts: 1`, fails the dead run's task as task_interrupted. A
 * task that died waiting for its client's answer waits again, and the
 * answer given to the new process finishes it. One ledger row per task.
 */

const OWNER = 'restart-owner';
const WORK = 'fx_task_work';

interface LedgerRow {
  request_id: string;
  target: string;
  outcome: string;
  error_code: number | null;
}

describe('tasks across a restart of the embedded gateway', () => {
  let gates: string;
  const dirs: string[] = [];
  const live: HttpGatewayChild[] = [];
  const clients: TaskClient[] = [];

  beforeAll(() => {
    gates = makeTempDir('task-restart-gates');
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(live.map((gateway) => gateway.stop()));
    for (const dir of [gates, ...dirs]) removeDir(dir);
  }, 60_000);

  function dataDir(): string {
    const dir = makeTempDir('task-restart');
    dirs.push(dir);
    return dir;
  }

  /** A gateway on `data` (its ledger.db, and tasks.db beside it), one task at a time. */
  async function start(data: string, env: Record<string, string> = {}): Promise<HttpGatewayChild> {
    const gateway = await HttpGatewayChild.start({
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: '0',
      MCP_SERVER_LEDGER_SQLITE_PATH: join(data, 'ledger.db'),
      MCP_SERVER_TASKS_WORKERS: '1',
      MCP_SERVER_TASKS_POLL_INTERVAL_MS: '100',
      [TASK_GATES_ENV]: gates,
      ...env,
    });
    live.push(gateway);
    return gateway;
  }

  async function connect(gateway: HttpGatewayChild): Promise<TaskClient> {
    const client = await TaskClient.connect(gateway.baseUrl, OWNER);
    clients.push(client);
    return client;
  }

  async function kill(gateway: HttpGatewayChild): Promise<void> {
    gateway.child.kill('SIGKILL');
    await gateway.exited;
    expect(gateway.child.signalCode).toBe('SIGKILL');
  }

  async function runStarted(gateway: HttpGatewayChild, label: string): Promise<void> {
    await waitUntil(() => runsStarted(gateway.stderr, label) === 1, `a run of ${label}`, 30_000);
  }

  /** Runs begun, as the task's record in tasks.db counts them. */
  function attempts(data: string, taskId: string): number {
    const db = new SqliteDatabase(join(data, 'tasks.db'), { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare('select record from tasks where task_id = ?').get(taskId) as
        { record: string } | undefined;
      return (JSON.parse(row?.record ?? '{}') as { attempts?: number }).attempts ?? 0;
    } finally {
      db.close();
    }
  }

  function ledgerRows(data: string, requestId: string): LedgerRow[] {
    return readLedgerRows<LedgerRow>(join(data, 'ledger.db'), OWNER).filter(
      (row) => row.request_id === `s:${requestId}`,
    );
  }

  it('runs the killed run again and starts the queued task in the next process', async () => {
    const data = dataDir();
    const first = await start(data);
    const onFirst = await connect(first);
    const long = await onFirst.createTask('resume-long', WORK, {
      label: 'resume-long',
      gated: true,
    });
    await runStarted(first, 'resume-long');
    // The one worker is busy: this task waits in the queue.
    const queued = await onFirst.createTask('resume-queued', WORK, { label: 'resume-queued' });
    expect(await onFirst.get(queued.taskId)).toMatchObject({
      status: 'working',
      statusMessage: 'queued',
    });
    await kill(first);
    expect(attempts(data, long.taskId)).toBe(1);
    expect(attempts(data, queued.taskId)).toBe(0);

    const second = await start(data);
    const onSecond = await connect(second);
    await runStarted(second, 'resume-long');
    expect(await onSecond.get(queued.taskId)).toMatchObject({ statusMessage: 'queued' });
    writeFileSync(join(gates, 'resume-long'), '');
    const longDone = await onSecond.waitFor(long.taskId, (t) => t.status === 'completed', 'long');
    expect(resultText(longDone)).toBe(`resume-long finished in process ${second.child.pid}`);
    expect(attempts(data, long.taskId)).toBe(2);
    const queuedDone = await onSecond.waitFor(
      queued.taskId,
      (t) => t.status === 'completed',
      'the queued task',
    );
    expect(resultText(queuedDone)).toBe(`resume-queued finished in process ${second.child.pid}`);
    expect(runsStarted(first.stderr, 'resume-queued')).toBe(0);
    expect(attempts(data, queued.taskId)).toBe(1);

    await second.stop();
    for (const requestId of ['resume-long', 'resume-queued']) {
      expect(ledgerRows(data, requestId)).toEqual([
        expect.objectContaining({ target: WORK, outcome: 'success' }),
      ]);
    }
  }, 90_000);

  it('fails the killed run’s task as task_interrupted with tasks.max_attempts 1', async () => {
    const data = dataDir();
    const once = { MCP_SERVER_TASKS_MAX_ATTEMPTS: '1' };
    const first = await start(data, once);
    const task = await (
      await connect(first)
    ).createTask('interrupted', WORK, { label: 'interrupted', gated: true });
    await runStarted(first, 'interrupted');
    await kill(first);

    const second = await start(data, once);
    const failed = await (
      await connect(second)
    ).waitFor(task.taskId, (t) => t.status === 'failed', 'the failure');
    expect(failed.error).toMatchObject({
      code: -32603,
      data: { reason: 'task_interrupted', attempts: 1 },
    });
    expect(failed.statusMessage).toContain('interrupted');
    expect(runsStarted(second.stderr, 'interrupted')).toBe(0);
    // The ledger row is committed before the failure shows.
    expect(ledgerRows(data, 'interrupted')).toEqual([
      expect.objectContaining({ target: WORK, outcome: 'error', error_code: -32603 }),
    ]);
  }, 90_000);

  it('asks again after a restart the question a killed run was waiting on, and finishes with the answer', async () => {
    const data = dataDir();
    const first = await start(data);
    const onFirst = await connect(first);
    const task = await onFirst.createTask('asked', 'fx_task_ask', { label: 'asked' });
    const asking = await onFirst.waitFor(
      task.taskId,
      (t) => t.status === 'input_required',
      'the question',
    );
    const keys = Object.keys(asking.inputRequests ?? {});
    expect(keys).toHaveLength(1);
    await kill(first);

    const second = await start(data);
    const onSecond = await connect(second);
    await runStarted(second, 'asked');
    const askedAgain = await onSecond.waitFor(
      task.taskId,
      (t) => t.status === 'input_required',
      'the question again',
    );
    // The same question under the same key: the client's answer to it still fits.
    expect(askedAgain.inputRequests).toEqual(asking.inputRequests);
    await onSecond.update(task.taskId, {
      [keys[0]]: { action: 'accept', content: { name: 'Ada' } },
    });
    const done = await onSecond.waitFor(task.taskId, (t) => t.status === 'completed', 'result');
    expect(resultText(done)).toBe(`asked greeted Ada in process ${second.child.pid}`);
    expect(attempts(data, task.taskId)).toBe(2);
    await second.stop();
    expect(ledgerRows(data, 'asked')).toEqual([
      expect.objectContaining({ target: 'fx_task_ask', outcome: 'success' }),
    ]);
  }, 90_000);
});
