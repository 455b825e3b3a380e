import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { TASK_GATES_ENV } from '../fixtures/task-runs-fixture.capability';
import { runsStarted } from '../support/fixture-task-runs';
import { allOrNothing } from '../support/governed-clients';
import { HttpGatewayChild } from '../support/http-child';
import { TEST_POSTGRES_URL } from '../support/postgres';
import { waitUntil } from '../support/sdk-clients';
import { servicesAvailable, tcpCheck } from '../support/service-availability';
import { makeTempDir, removeDir } from '../support/skills-dir';
import { resultText, TaskClient } from '../support/task-client';

/**
 * Tasks in scale-out mode (`state.driver: redis`, BullMQ on the shared
 * Redis, the ledger on PostgreSQL), with real gateway processes: a task
 * created on one replica is answered and cancelled by another; a replica
 * that stops gracefully hands its running task to the other at once; a
 * replica killed with SIGKILL mid-run loses its job lock and the survivor
 * runs the task again and finishes it. Every task ends with exactly one
 * ledger row, and nobody but its client can see it, on any replica.
 */

const available = servicesAvailable('task replicas e2e', [
  tcpCheck('Redis', '127.0.0.1', 6379),
  tcpCheck('PostgreSQL', '127.0.0.1', 5432),
]);

const OWNER = 'tasks-owner';
const STRANGER = 'tasks-stranger';
const TOOL = 'fx_task_work';
/** Invalid params: what tasks/get answers for a task that is not the caller's (ext-tasks, "Error Handling"). */
const INVALID_PARAMS = -32602;
/** tasks/cancel requests sent at once for one task. */
const CANCEL_BURST = 40;

interface LedgerRow {
  request_id: string;
  client_id: string;
  target: string;
  outcome: string;
  error_code: number | null;
}

(available ? describe : describe.skip)('tasks across replicas on Redis and PostgreSQL', () => {
  const run = randomUUID().slice(0, 8);
  const schema = `owlclaw_tasks_${run}`;
  const prefix = `owlclaw-test-${run}:`;
  let dir: string;
  let pg: PgClient;
  let redis: Redis;
  const live: HttpGatewayChild[] = [];
  const clients: TaskClient[] = [];

  const replicaEnv = () => ({
    MCP_SERVER_HTTP_HOST: '127.0.0.1',
    MCP_SERVER_HTTP_PORT: '0',
    MCP_SERVER_STATE_DRIVER: 'redis',
    MCP_SERVER_STATE_REDIS_URL: 'redis://127.0.0.1:6379',
    MCP_SERVER_STATE_KEY_PREFIX: prefix,
    MCP_SERVER_LEDGER_DRIVER: 'postgres',
    // pg passes `options` to the server: every replica's ledger lives in this run's schema.
    MCP_SERVER_LEDGER_POSTGRES_URL: `${TEST_POSTGRES_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    // A replica silent for 2 s is taken for dead: the hand-over after a SIGKILL stays short.
    MCP_SERVER_TASKS_LOCK_SECONDS: '2',
    MCP_SERVER_TASKS_POLL_INTERVAL_MS: '100',
    [TASK_GATES_ENV]: dir,
  });

  async function startReplicas(count: number): Promise<HttpGatewayChild[]> {
    const started = await allOrNothing(
      Array.from({ length: count }, () => HttpGatewayChild.start(replicaEnv())),
    );
    live.push(...started);
    return started;
  }

  /** The replicas still running (each test leaves the next what it did not stop). */
  function alive(): HttpGatewayChild[] {
    return live.filter(
      (replica) => replica.child.exitCode === null && replica.child.signalCode === null,
    );
  }

  async function connect(replica: HttpGatewayChild, clientId = OWNER): Promise<TaskClient> {
    const client = await TaskClient.connect(replica.baseUrl, clientId);
    clients.push(client);
    return client;
  }

  /** Lets the held runs of the fixture task `label` finish. */
  function release(label: string): void {
    writeFileSync(join(dir, label), '');
  }

  /** The replica whose log shows a run of `label` starting, once one does. */
  async function runnerOf(label: string, among: HttpGatewayChild[]): Promise<HttpGatewayChild> {
    await waitUntil(
      () => among.some((replica) => runsStarted(replica.stderr, label) > 0),
      `a run of ${label}`,
      30_000,
    );
    return among.find((replica) => runsStarted(replica.stderr, label) > 0)!;
  }

  /** Runs begun, as the task record in Redis counts them. */
  async function attempts(taskId: string): Promise<number> {
    const text = await redis.get(`${prefix}task:${taskId}`);
    return (JSON.parse(text ?? '{}') as { attempts?: number }).attempts ?? 0;
  }

  async function ledgerRows(requestId: string): Promise<LedgerRow[]> {
    const result = await pg.query<LedgerRow>(
      `select request_id, client_id, target, outcome, error_code
         from ${schema}.ledger where request_id = $1 order by id`,
      [`s:${requestId}`],
    );
    return result.rows;
  }

  beforeAll(async () => {
    dir = makeTempDir('task-replicas');
    pg = new PgClient({ connectionString: TEST_POSTGRES_URL });
    await pg.connect();
    await pg.query(`create schema ${schema}`);
    redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true });
    await redis.connect();
    await startReplicas(2);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(live.map((replica) => replica.stop()));
    if (redis !== undefined) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
    if (pg !== undefined) {
      await pg.query(`drop schema if exists ${schema} cascade`);
      await pg.end();
    }
    removeDir(dir);
  }, 60_000);

  it('answers and cancels on B a task created on A while both are alive', async () => {
    const [a, b] = alive();
    const [onA, onB] = [await connect(a), await connect(b)];
    const strangers = [await connect(a, STRANGER), await connect(b, STRANGER)];

    const created = await onA.createTask('alive-cancel', TOOL, {
      label: 'alive-cancel',
      gated: true,
    });
    expect(created).toMatchObject({ status: 'working' });
    await runnerOf('alive-cancel', [a, b]);
    expect(await onB.get(created.taskId)).toMatchObject({ status: 'working' });
    for (const stranger of strangers) {
      expect(await stranger.refusedGet(created.taskId)).toBe(INVALID_PARAMS);
    }
    // A client that insists: every cancel is acknowledged, on either replica, and one of them lands.
    await Promise.all(
      Array.from({ length: CANCEL_BURST }, (_, i) =>
        (i % 2 === 0 ? onB : onA).cancel(created.taskId),
      ),
    );
    await onA.waitFor(created.taskId, (task) => task.status === 'cancelled', 'the cancellation');
    expect(await onB.get(created.taskId)).toMatchObject({ status: 'cancelled' });
    expect(await ledgerRows('alive-cancel')).toEqual([
      expect.objectContaining({ client_id: OWNER, target: TOOL, outcome: 'cancelled' }),
    ]);

    const done = await onA.createTask('alive-done', TOOL, { label: 'alive-done', gated: true });
    const runner = await runnerOf('alive-done', [a, b]);
    release('alive-done');
    const finished = await onB.waitFor(
      done.taskId,
      (task) => task.status === 'completed',
      'the result',
    );
    expect(resultText(finished)).toBe(`alive-done finished in process ${runner.child.pid}`);
    expect(await ledgerRows('alive-done')).toEqual([
      expect.objectContaining({ client_id: OWNER, target: TOOL, outcome: 'success' }),
    ]);
  }, 90_000);

  it('hands a running task to the other replica when its replica stops gracefully', async () => {
    const [first, second] = alive();
    const creator = await connect(first);
    const created = await creator.createTask('handover', TOOL, { label: 'handover', gated: true });
    const runner = await runnerOf('handover', [first, second]);
    const survivor = runner === first ? second : first;
    const onSurvivor = await connect(survivor);

    await runner.stop();
    // An orderly exit: not the SIGKILL that stop() falls back to when a shutdown hangs.
    expect(runner.child.signalCode).toBeNull();
    expect(runner.child.exitCode).toBe(0);
    await waitUntil(
      () => runsStarted(survivor.stderr, 'handover') === 1,
      'the run on the survivor',
      30_000,
    );
    release('handover');
    const finished = await onSurvivor.waitFor(
      created.taskId,
      (task) => task.status === 'completed',
      'the result',
    );
    expect(resultText(finished)).toBe(`handover finished in process ${survivor.child.pid}`);
    // The interrupted run and the one that finished: no run was begun and lost in between.
    expect(await attempts(created.taskId)).toBe(2);
    expect(await ledgerRows('handover')).toEqual([
      expect.objectContaining({ client_id: OWNER, target: TOOL, outcome: 'success' }),
    ]);
  }, 90_000);

  it('finishes on B, and answers from B, a task whose replica A was killed with SIGKILL mid-run', async () => {
    // A is the only replica when the task is created, so its worker is the one running it.
    expect(alive()).toHaveLength(1);
    const [a] = alive();
    const onA = await connect(a);
    const created = await onA.createTask('killed', TOOL, { label: 'killed', gated: true });
    await waitUntil(() => runsStarted(a.stderr, 'killed') === 1, 'the run on A', 30_000);
    const [b] = await startReplicas(1);
    const onB = await connect(b);
    const strangers = [await connect(a, STRANGER), await connect(b, STRANGER)];
    expect(await onB.get(created.taskId)).toMatchObject({ status: 'working' });
    for (const stranger of strangers) {
      expect(await stranger.refusedGet(created.taskId)).toBe(INVALID_PARAMS);
    }

    a.child.kill('SIGKILL');
    await a.exited;
    expect(a.child.signalCode).toBe('SIGKILL');
    // A's job lock lapses after tasks.lock_seconds; B's stalled-job check then runs the task again.
    await waitUntil(() => runsStarted(b.stderr, 'killed') === 1, 'the run on B', 30_000);
    expect(await onB.get(created.taskId)).toMatchObject({ status: 'working' });
    release('killed');
    const finished = await onB.waitFor(
      created.taskId,
      (task) => task.status === 'completed',
      'the result',
    );
    expect(resultText(finished)).toBe(`killed finished in process ${b.child.pid}`);
    expect(await attempts(created.taskId)).toBe(2);
    expect(await ledgerRows('killed')).toEqual([
      expect.objectContaining({ client_id: OWNER, target: TOOL, outcome: 'success' }),
    ]);
    expect(await strangers[1].refusedGet(created.taskId)).toBe(INVALID_PARAMS);
  }, 90_000);

  it('keeps the answer a client gives while the replica that asked is dead, and finishes with it', async () => {
    expect(alive()).toHaveLength(1);
    const [asker] = alive();
    const onAsker = await connect(asker);
    const created = await onAsker.createTask('orphaned-question', 'fx_task_ask', {
      label: 'orphaned-question',
    });
    const asking = await onAsker.waitFor(
      created.taskId,
      (task) => task.status === 'input_required',
      'the question',
    );
    const [key] = Object.keys(asking.inputRequests ?? {});
    const [heir] = await startReplicas(1);
    const onHeir = await connect(heir);

    asker.child.kill('SIGKILL');
    await asker.exited;
    // Answered on the survivor, whether or not it has taken the job up yet.
    await onHeir.update(created.taskId, { [key]: { action: 'accept', content: { name: 'Ada' } } });
    const finished = await onHeir.waitFor(
      created.taskId,
      (task) => task.status === 'completed',
      'the result',
    );
    expect(resultText(finished)).toBe(`orphaned-question greeted Ada in process ${heir.child.pid}`);
    expect(runsStarted(heir.stderr, 'orphaned-question')).toBe(1);
    expect(await attempts(created.taskId)).toBe(2);
    expect(await ledgerRows('orphaned-question')).toEqual([
      expect.objectContaining({ client_id: OWNER, target: 'fx_task_ask', outcome: 'success' }),
    ]);
  }, 90_000);
});
