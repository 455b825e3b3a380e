import { setTimeout as delay } from 'node:timers/promises';
import { ADMIN_TOKEN_ENV } from '../../src/admin/admin.constants';
import { ErrorCode } from '../../src/errors/error-code';
import { DeepPartial } from '../../src/config/config.loader';
import { GatewayConfig } from '../../src/config/gateway-config';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { createTask, getTask, TaskView, waitForTask } from '../support/modern-task-requests';

/**
 * GET /admin/tasks and DELETE /admin/tasks/{id} on the real HTTP gateway,
 * with tasks created by raw MCP 2026-07-28 tools/call requests to the demo
 * pack's inventory_recount (a task for clients that accept tasks), and the
 * task metrics on /metrics.
 */

const TOKEN = 'tasks-admin-e2e-token-51c2-0123456789';
const TOOL = 'inventory_recount';
/** A recount of one warehouse (10 products) with no wait per product: done in a moment. */
const QUICK = { warehouse: 'east', secondsPerItem: 0 };
/** Every field an entry has, and nothing else: no arguments, no result, no principal. */
const ENTRY_FIELDS = [
  'attempts',
  'cancelRequested',
  'clientId',
  'cost',
  'createdAt',
  'error',
  'finishedAt',
  'lastUpdatedAt',
  'runner',
  'startedAt',
  'status',
  'statusMessage',
  'taskId',
  'tool',
  'traceId',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface TaskEntry {
  taskId: string;
  clientId: string;
  tool: string;
  status: string;
  statusMessage: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  attempts: number;
  runner: string | null;
  cost: number | null;
  traceId: string;
  cancelRequested: boolean;
  error: { code: number; message: string } | null;
}

interface ErrorBody {
  statusCode: number;
  message: string;
  field?: string;
}

const savedToken = process.env[ADMIN_TOKEN_ENV];

afterAll(() => {
  if (savedToken === undefined) delete process.env[ADMIN_TOKEN_ENV];
  else process.env[ADMIN_TOKEN_ENV] = savedToken;
});

/** The guard reads the token when the app is built, so the variable is set around creation only. */
async function gatewayWithToken(config: DeepPartial<GatewayConfig>): Promise<HttpGatewayHandle> {
  process.env[ADMIN_TOKEN_ENV] = TOKEN;
  try {
    return await startHttpGateway({ config });
  } finally {
    if (savedToken === undefined) delete process.env[ADMIN_TOKEN_ENV];
    else process.env[ADMIN_TOKEN_ENV] = savedToken;
  }
}

function adminClient(gateway: () => HttpGatewayHandle) {
  const send = async <T>(method: string, path: string, token: string | null = TOKEN) => {
    const res = await fetch(`${gateway().baseUrl}${path}`, {
      method,
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
    });
    return { status: res.status, body: (await res.json()) as T };
  };
  return {
    list: async (query = '', token?: string | null) =>
      send<{ items: TaskEntry[] }>('GET', `/admin/tasks${query}`, token),
    cancel: async (id: string, token?: string | null) =>
      send<TaskEntry>('DELETE', `/admin/tasks/${encodeURIComponent(id)}`, token),
    send,
  };
}

/** Polls the admin list until `reached` holds for its items (bounded). */
async function waitForList(
  admin: ReturnType<typeof adminClient>,
  query: string,
  reached: (items: TaskEntry[]) => boolean,
  what: string,
): Promise<TaskEntry[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { body } = await admin.list(query);
    if (reached(body.items)) return body.items;
    if (Date.now() > deadline) throw new Error(`${what} never happened: ${JSON.stringify(body)}`);
    await delay(100);
  }
}

/** One sample of the Prometheus text (0 while the series does not exist yet). */
function sample(metrics: string, series: string): number {
  const line = metrics.split('\n').find((each) => each.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('tasks admin API', () => {
  let gateway: HttpGatewayHandle;
  const admin = adminClient(() => gateway);
  const finished = (task: TaskView) => ['completed', 'failed', 'cancelled'].includes(task.status);

  // Tasks are listed by creation time in milliseconds: two in one millisecond have no order.
  let lastCreatedAt = 0;
  async function createInItsOwnMillisecond(clientId: string): Promise<TaskView> {
    while (Date.now() <= lastCreatedAt) await delay(1);
    const task = await createTask(gateway.baseUrl, clientId, TOOL, QUICK);
    lastCreatedAt = Date.parse(task.createdAt);
    return task;
  }

  beforeAll(async () => {
    gateway = await gatewayWithToken({
      // One worker: a second task waits in the queue while the first runs.
      tasks: { workers: 1 },
      governance: { default_quota: { max_concurrent_tasks: 100 } },
    });
  }, 60_000);
  afterAll(() => gateway?.close());

  it('needs the admin bearer token', async () => {
    expect((await admin.list('', null)).status).toBe(401);
    expect((await admin.list('', 'wrong-token')).status).toBe(401);
    expect((await admin.cancel('some-task', null)).status).toBe(401);
    expect((await admin.cancel('some-task', 'wrong-token')).status).toBe(401);
  });

  it('lists a task with its life, never its arguments nor its result', async () => {
    const created = await createTask(gateway.baseUrl, 'alpha', TOOL, QUICK);
    await waitForTask(gateway.baseUrl, 'alpha', created.taskId, finished, 'an end');

    const { status, body } = await admin.list('?client=alpha');
    expect(status).toBe(200);
    expect(body.items).toHaveLength(1);
    const [entry] = body.items;
    expect(Object.keys(entry).sort()).toEqual(ENTRY_FIELDS);
    expect(entry).toMatchObject({
      taskId: created.taskId,
      clientId: 'alpha',
      tool: TOOL,
      status: 'completed',
      attempts: 1,
      // The tool's estimatedCost: it reports no cost of its own.
      cost: 3,
      cancelRequested: false,
      error: null,
      createdAt: created.createdAt,
    });
    expect(entry.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(entry.runner).toMatch(/:\d+$/);
    for (const time of [entry.createdAt, entry.startedAt, entry.finishedAt]) {
      expect(time).toMatch(ISO);
    }
    expect(Date.parse(entry.startedAt!)).toBeGreaterThanOrEqual(Date.parse(entry.createdAt));
    expect(Date.parse(entry.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(entry.startedAt!));
    // The client still gets its result through tasks/get; the operator never sees it.
    const owned = await getTask(gateway.baseUrl, 'alpha', created.taskId);
    expect(owned.result).toMatchObject({ structuredContent: { scope: 'east', counted: 10 } });
    expect(JSON.stringify(body)).not.toMatch(/structuredContent|secondsPerItem|"east"/);
  });

  it('filters by client and state, newest first, 50 by default and at most limit', async () => {
    const ids: string[] = [];
    // More than a default page, each created a millisecond after the last so their order is certain.
    for (let i = 0; i < 52; i++) {
      ids.push((await createInItsOwnMillisecond('bulk')).taskId);
    }
    const beta = await createInItsOwnMillisecond('beta');
    await waitForList(
      admin,
      '?client=bulk&state=completed&limit=100',
      (items) => items.length === 52,
      'every bulk task completed',
    );
    await waitForTask(gateway.baseUrl, 'beta', beta.taskId, finished, 'an end');

    const page = await admin.list('?client=bulk');
    expect(page.body.items.map((entry) => entry.taskId)).toEqual(ids.slice(2).reverse());
    const newest = await admin.list('?client=bulk&limit=3');
    expect(newest.body.items.map((entry) => entry.taskId)).toEqual(ids.slice(-3).reverse());
    const all = await admin.list('?limit=100');
    expect(all.body.items.map((entry) => entry.taskId)[0]).toBe(beta.taskId);
    expect(new Set(all.body.items.map((entry) => entry.clientId))).toEqual(
      new Set(['alpha', 'bulk', 'beta']),
    );
    expect((await admin.list('?client=beta&state=completed')).body.items).toHaveLength(1);
    expect((await admin.list('?client=beta&state=failed')).body.items).toEqual([]);
    expect((await admin.list('?client=nobody')).body.items).toEqual([]);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=2.5', 'limit'],
    ['limit=', 'limit'],
    ['state=running', 'state'],
    ['state=WORKING', 'state'],
    ['client=a&client=b', 'client'],
    [`client=${'c'.repeat(257)}`, 'client'],
    ['clientId=alpha', 'clientId'],
    ['status=completed', 'status'],
  ])('answers 400 naming the bad filter for ?%s', async (query, field) => {
    const res = await admin.send<ErrorBody>('GET', `/admin/tasks?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, field });
    expect(res.body.message).toMatch(new RegExp(`^${field}: `));
    expect(res.body.message.length).toBeLessThan(200);
  });

  it('answers 404 for a task that does not exist', async () => {
    const unknown = await admin.cancel('no-such-task-id');
    expect(unknown.status).toBe(404);
    expect((await admin.cancel('x'.repeat(5000))).status).toBe(404);
  });

  it('cancels a queued task at once and a running one when its tool stops', async () => {
    // One product a second: 30 s if nobody stops it.
    const running = await createTask(gateway.baseUrl, 'gamma', TOOL, { secondsPerItem: 1 });
    await waitForTask(
      gateway.baseUrl,
      'gamma',
      running.taskId,
      (task) => task.statusMessage?.startsWith('Counted ') === true,
      'counting',
    );
    // The only worker is busy: this one waits in the queue.
    const queued = await createTask(gateway.baseUrl, 'gamma', TOOL, QUICK);
    const [waiting] = (await admin.list('?client=gamma&limit=1')).body.items;
    expect(waiting).toMatchObject({ taskId: queued.taskId, attempts: 0, startedAt: null });

    const dequeued = await admin.cancel(queued.taskId);
    expect(dequeued.status).toBe(202);
    expect(dequeued.body).toMatchObject({
      taskId: queued.taskId,
      status: 'cancelled',
      attempts: 0,
      startedAt: null,
      cancelRequested: true,
    });

    const stopping = await admin.cancel(running.taskId);
    expect(stopping.status).toBe(202);
    expect(stopping.body).toMatchObject({ taskId: running.taskId, cancelRequested: true });
    const stopped = await waitForTask(gateway.baseUrl, 'gamma', running.taskId, finished, 'an end');
    expect(stopped.status).toBe('cancelled');
    expect(stopped.result).toBeUndefined();
    const [entry] = (await admin.list(`?client=gamma&state=cancelled`)).body.items.filter(
      (each) => each.taskId === running.taskId,
    );
    expect(entry).toMatchObject({ attempts: 1, cancelRequested: true, error: null });
    expect(entry.finishedAt).toMatch(ISO);

    // Asking again changes nothing: the ended task is shown as it is.
    const again = await admin.cancel(running.taskId);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ status: 'cancelled', finishedAt: entry.finishedAt });

    // Each call ended in the ledger as cancelled, the queued one included.
    const ledger = await admin.send<{ items: Array<{ target: string; outcome: string }> }>(
      'GET',
      '/admin/ledger?client=gamma',
    );
    expect(ledger.body.items).toEqual([
      expect.objectContaining({ target: TOOL, outcome: 'cancelled' }),
      expect.objectContaining({ target: TOOL, outcome: 'cancelled' }),
    ]);
  }, 90_000);

  it('exports the task counters and histograms on /metrics', async () => {
    const scrape = async () => (await fetch(`${gateway.baseUrl}/metrics`)).text();
    const series = {
      created: `mcp_tasks_created_total{tool="${TOOL}"}`,
      completed: 'mcp_tasks_finished_total{state="completed"}',
      waits: 'mcp_task_queue_wait_seconds_count',
      runs: 'mcp_task_run_seconds_count',
    };
    const before = await scrape();
    const task = await createTask(gateway.baseUrl, 'delta', TOOL, QUICK);
    await waitForTask(gateway.baseUrl, 'delta', task.taskId, finished, 'an end');

    // The counters move just after the stored status does: polled, within a bound.
    const deadline = Date.now() + 30_000;
    let after = await scrape();
    while (sample(after, series.completed) === sample(before, series.completed)) {
      if (Date.now() > deadline) throw new Error(`no completed task counted:\n${after}`);
      await delay(100);
      after = await scrape();
    }
    for (const name of Object.values(series)) {
      expect(sample(after, name) - sample(before, name)).toBe(1);
    }
    expect(sample(after, 'mcp_task_run_seconds_sum')).toBeGreaterThan(0);
    expect(after).toMatch(/^mcp_tasks_running 0$/m);
    expect(after).toMatch(/^# TYPE mcp_task_queue_wait_seconds histogram$/m);
  }, 60_000);

  it('documents both routes in the OpenAPI document', async () => {
    type Operation = {
      parameters?: Array<{ name: string; in: string }>;
      responses: Record<string, unknown>;
      security: unknown;
    };
    const doc = await admin.send<{
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    }>('GET', '/admin/openapi.json');
    expect(doc.status).toBe(200);
    const list = doc.body.paths['/admin/tasks'].get;
    expect(list.parameters?.map((p) => `${p.in}:${p.name}`).sort()).toEqual([
      'query:client',
      'query:limit',
      'query:state',
    ]);
    expect(Object.keys(list.responses)).toEqual(expect.arrayContaining(['200', '400', '401']));
    const cancel = doc.body.paths['/admin/tasks/{id}'].delete;
    expect(cancel.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(['path:id']);
    expect(Object.keys(cancel.responses)).toEqual(expect.arrayContaining(['202', '401', '404']));
    expect(cancel.security).toEqual([{ 'admin-token': [] }]);
    expect(Object.keys(doc.body.components.schemas.TaskEntryDto.properties).sort()).toEqual(
      ENTRY_FIELDS,
    );
  });
});

describe('tasks admin API: a failed task', () => {
  let gateway: HttpGatewayHandle;
  const admin = adminClient(() => gateway);

  beforeAll(async () => {
    // A recount's result is a few kilobytes: over the smallest allowed limit, the task fails.
    gateway = await gatewayWithToken({ tasks: { max_result_bytes: 1024 } });
  }, 60_000);
  afterAll(() => gateway?.close());

  it('shows the error code and message, never its data', async () => {
    const task = await createTask(gateway.baseUrl, 'epsilon', TOOL, QUICK);
    const ended = await waitForTask(
      gateway.baseUrl,
      'epsilon',
      task.taskId,
      (each) => each.status !== 'working',
      'an end',
    );
    expect(ended.status).toBe('failed');

    const [entry] = (await admin.list('?state=failed')).body.items;
    expect(entry).toMatchObject({
      taskId: task.taskId,
      status: 'failed',
      error: { code: ErrorCode.ExecutionError, message: ended.error?.message },
      statusMessage: ended.error?.message,
    });
    expect(entry.error?.message).toMatch(/exceeds tasks\.max_result_bytes \(1024\)$/);
    expect(Object.keys(entry.error!).sort()).toEqual(['code', 'message']);
  });
});
