import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { setTimeout as delay } from 'node:timers/promises';
import { TASKS_EXTENSION } from '../../src/tasks/tasks.constants';
import { TASK_ESTIMATE } from '../fixtures/tasks-fixture.capability';
import { callThroughTasksClient } from '../support/ext-tasks-client';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { readLedgerRows } from '../support/sqlite-ledger';

/**
 * Long-running tool calls as MCP tasks (#19, ext-tasks on 2026-07-28): the
 * official Tasks client drives whole calls (create, poll, answer a question,
 * cancel); raw requests check what a client may and may not do (other
 * clients' tasks, missing capability, limits, budgets); the SDK v2 client
 * listens for notifications/tasks.
 */
const MODERN = '2026-07-28';
const MAX_RESULT_BYTES = 4096;
const TASKS_CAPABILITIES = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };

interface RpcBody {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

interface LedgerRow {
  target: string;
  outcome: string;
  cost: number;
  trace_id: string;
  error_code: number | null;
}

describe('MCP tasks (io.modelcontextprotocol/tasks)', () => {
  let gateway: HttpGatewayHandle;
  let nextId = 0;

  beforeAll(async () => {
    gateway = await startHttpGateway({
      fixtures: true,
      config: {
        tasks: { max_result_bytes: MAX_RESULT_BYTES, poll_interval_ms: 200 },
        limits: { subscriptions_per_session: 5 },
        governance: {
          clients: {
            'tasks-limited': { quota: { max_concurrent_tasks: 2 } },
            'tasks-poor': { quota: { monthly_budget: 3 } },
          },
        },
      },
    });
  }, 60_000);

  afterAll(() => gateway?.close());

  /** One 2026-07-28 request as raw JSON-RPC, with its mirrored headers. */
  async function rpc(
    method: string,
    params: Record<string, unknown>,
    options: { clientId?: string; capabilities?: Record<string, unknown> } = {},
  ): Promise<RpcBody> {
    const name = method === 'tools/call' ? params.name : params.taskId;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      'x-mcp-client-id': options.clientId ?? 'tasks-raw',
    };
    if (typeof name === 'string') headers['mcp-name'] = name;
    const response = await fetch(`${gateway.baseUrl}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++nextId,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities':
              options.capabilities ?? TASKS_CAPABILITIES,
          },
        },
      }),
    });
    return (await response.json()) as RpcBody;
  }

  async function create(tool: string, args: Record<string, unknown>, clientId = 'tasks-raw') {
    const body = await rpc('tools/call', { name: tool, arguments: args }, { clientId });
    expect(body.result).toMatchObject({ resultType: 'task', status: 'working' });
    return body.result!.taskId as string;
  }

  async function settled(taskId: string, clientId = 'tasks-raw'): Promise<Record<string, unknown>> {
    for (let i = 0; i < 300; i++) {
      const body = await rpc('tasks/get', { taskId }, { clientId });
      const status = body.result?.status;
      if (status === 'completed' || status === 'failed' || status === 'cancelled')
        return body.result!;
      await delay(100);
    }
    throw new Error(`task ${taskId} did not settle`);
  }

  function ledgerRowsOf(clientId: string): LedgerRow[] {
    return readLedgerRows<LedgerRow>(gateway.config.ledger.sqlite_path, clientId);
  }

  describe('through the official MCP Tasks client', () => {
    it('runs a call as a task to its result, with one ledger row charged when it ran', async () => {
      const report = await callThroughTasksClient({
        baseUrl: gateway.baseUrl,
        clientId: 'tasks-sdk-complete',
        tool: 'task_sleep',
        arguments: { ms: 1500, label: 'sdk' },
        mode: 'settle',
      });
      expect(report.kind).toBe('task');
      expect(report.statuses).toContain('working');
      expect(report.final.status).toBe('completed');
      expect(report.final.result).toMatchObject({
        content: [{ type: 'text', text: 'slept 1500 ms for sdk' }],
      });
      const rows = ledgerRowsOf('tasks-sdk-complete');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        target: 'task_sleep',
        outcome: 'success',
        cost: TASK_ESTIMATE,
      });
    }, 60_000);

    it('asks the client through the task (input_required, tasks/update) and goes on with the answer', async () => {
      const report = await callThroughTasksClient({
        baseUrl: gateway.baseUrl,
        clientId: 'tasks-sdk-ask',
        tool: 'task_ask',
        mode: 'settle',
        answer: { colour: 'teal' },
      });
      expect(report.inputs).toEqual(['elicitation']);
      expect(report.statuses).toContain('input_required');
      expect(report.final.status).toBe('completed');
      expect(report.final.result).toMatchObject({
        content: [{ type: 'text', text: 'colour: teal (accept)' }],
      });
    }, 60_000);

    it('cancels a running task: it ends cancelled, and is charged for what ran', async () => {
      const report = await callThroughTasksClient({
        baseUrl: gateway.baseUrl,
        clientId: 'tasks-sdk-cancel',
        tool: 'task_sleep',
        arguments: { ms: 60_000 },
        mode: 'cancel-when-working',
      });
      expect(report.final.status).toBe('cancelled');
      // The cancellation is eventually consistent: the row is written as the run stops.
      const task = await settled(report.taskId!, 'tasks-sdk-cancel');
      expect(task.status).toBe('cancelled');
      const rows = ledgerRowsOf('tasks-sdk-cancel');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ target: 'task_sleep', outcome: 'cancelled' });
    }, 60_000);
  });

  it('sends notifications/tasks to a subscriptions/listen stream that asked for the task', async () => {
    const clientId = 'tasks-listener';
    const client = new ClientV2(
      { name: 'tasks-listener', version: '1.0.0' },
      { capabilities: TASKS_CAPABILITIES, versionNegotiation: { mode: { pin: MODERN } } },
    );
    const seen: Array<Record<string, unknown>> = [];
    client.fallbackNotificationHandler = (notification) => {
      if (notification.method === 'notifications/tasks') seen.push(notification.params ?? {});
      return Promise.resolve();
    };
    await client.connect(
      new HttpV2(new URL(`${gateway.baseUrl}/mcp`), {
        requestInit: { headers: { 'x-mcp-client-id': clientId } },
      }),
    );
    try {
      const taskId = await create('task_sleep', { ms: 1000 }, clientId);
      // Another client's task, changing while the stream is open: never reported to this one.
      const stranger = await create('task_sleep', { ms: 1000 }, 'tasks-stranger');
      const subscription = await client.listen({ taskIds: [taskId, stranger] } as never);
      for (let i = 0; i < 100 && !seen.some((n) => n.status === 'completed'); i++) await delay(100);
      await subscription.close();
      const done = seen.find((n) => n.status === 'completed');
      expect(done).toMatchObject({
        taskId,
        result: { content: [{ type: 'text', text: 'slept 1000 ms' }] },
      });
      expect(seen.every((n) => n.taskId === taskId)).toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("shows the handler's progress as the task's statusMessage", async () => {
    const taskId = await create('task_sleep', { ms: 4000 });
    let message: unknown;
    for (let i = 0; i < 100 && typeof message !== 'string'; i++) {
      message = (await rpc('tasks/get', { taskId })).result?.statusMessage;
      if (message === 'queued') message = undefined;
      await delay(100);
    }
    expect(message).toMatch(/^sleeping \(\d+\/10\)$/);
    await rpc('tasks/cancel', { taskId });
  }, 30_000);

  it('serves sessions of the earlier revisions synchronously, and refuses them task-only tools', async () => {
    const client = new LegacyClient({ name: 'tasks-legacy', version: '1.0.0' });
    await client.connect(new LegacyHttp(new URL(`${gateway.baseUrl}/mcp`)));
    try {
      const sync = await client.callTool({ name: 'task_sleep', arguments: { ms: 10 } });
      expect(sync.content).toEqual([{ type: 'text', text: 'slept 10 ms' }]);
      await expect(client.callTool({ name: 'task_only', arguments: {} })).rejects.toMatchObject({
        code: -32021,
      });
    } finally {
      await client.close();
    }
  });

  it('answers for a task only to the client that created it, exactly as for an unknown id', async () => {
    const taskId = await create('task_sleep', { ms: 10 }, 'tasks-owner');
    const unknown = await rpc('tasks/get', { taskId: 'no-such-task' }, { clientId: 'tasks-thief' });
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
      const params = method === 'tasks/update' ? { taskId, inputResponses: {} } : { taskId };
      const theft = await rpc(method, params, { clientId: 'tasks-thief' });
      expect(theft.error).toEqual({ ...unknown.error, data: expect.any(Object) });
      expect(theft.error?.message).toBe('Failed to retrieve task: Task not found');
    }
    expect((await settled(taskId, 'tasks-owner')).status).toBe('completed');
  }, 30_000);

  it('refuses the task methods to a request without the extension (-32021 naming it)', async () => {
    const taskId = await create('task_sleep', { ms: 10 });
    const body = await rpc('tasks/get', { taskId }, { capabilities: {} });
    expect(body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
  });

  it('keeps calls synchronous for clients without tasks, unless the tool runs only as a task', async () => {
    const sync = await rpc(
      'tools/call',
      { name: 'task_sleep', arguments: { ms: 10 } },
      { capabilities: {} },
    );
    expect(sync.result).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'slept 10 ms' }],
    });
    const only = await rpc(
      'tools/call',
      { name: 'task_only', arguments: {} },
      { capabilities: {} },
    );
    expect(only.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
    // A tool expected to run past tools.async_threshold_seconds is a task for those who take tasks.
    const long = await rpc('tools/call', { name: 'task_long_estimate', arguments: {} });
    expect(long.result).toMatchObject({ resultType: 'task' });
    const longSync = await rpc(
      'tools/call',
      { name: 'task_long_estimate', arguments: {} },
      { capabilities: {} },
    );
    expect(longSync.result).toMatchObject({ resultType: 'complete' });
  });

  it('limits the tasks one client runs at once (max_concurrent_tasks), with a clear refusal', async () => {
    const clientId = 'tasks-limited';
    const first = await create('task_sleep', { ms: 60_000 }, clientId);
    const second = await create('task_sleep', { ms: 60_000 }, clientId);
    const third = await rpc(
      'tools/call',
      { name: 'task_sleep', arguments: { ms: 10 } },
      { clientId },
    );
    expect(third.error).toMatchObject({
      code: -32003,
      data: { limit: 'max_concurrent_tasks', max: 2, retryable: true },
    });
    await rpc('tasks/cancel', { taskId: first }, { clientId });
    expect((await settled(first, clientId)).status).toBe('cancelled');
    // One slot is free again.
    const fourth = await create('task_sleep', { ms: 10 }, clientId);
    await rpc('tasks/cancel', { taskId: second }, { clientId });
    expect((await settled(fourth, clientId)).status).toBe('completed');
  }, 60_000);

  it('passes task creation through the budget guard: a task that does not fit is refused', async () => {
    const clientId = 'tasks-poor';
    const first = await create('task_sleep', { ms: 500 }, clientId);
    // The first task's estimate (2 of 3) is reserved: a second does not fit.
    const second = await rpc(
      'tools/call',
      { name: 'task_sleep', arguments: { ms: 10 } },
      { clientId },
    );
    expect(second.error).toMatchObject({ code: -32003, data: { reason: 'budget_exceeded' } });
    expect((await settled(first, clientId)).status).toBe('completed');
    const rows = ledgerRowsOf(clientId);
    expect(rows.map((row) => row.outcome).sort()).toEqual(['denied', 'success']);
    expect(rows.find((row) => row.outcome === 'success')?.cost).toBe(TASK_ESTIMATE);
  }, 30_000);

  describe('hostile input', () => {
    it('fails a task whose result is larger than tasks.max_result_bytes, naming the limit', async () => {
      const taskId = await create('task_big', { bytes: MAX_RESULT_BYTES * 4 });
      const task = await settled(taskId);
      expect(task).toMatchObject({
        status: 'failed',
        error: { data: { limit: 'tasks.max_result_bytes', max: MAX_RESULT_BYTES } },
      });
      expect(task.result).toBeUndefined();
    });

    it('answers a task id of 10,000 characters as unknown', async () => {
      const body = await rpc('tasks/get', { taskId: 'x'.repeat(10_000) });
      expect(body.error).toMatchObject({
        code: -32602,
        message: 'Failed to retrieve task: Task not found',
      });
    });

    it('refuses inputResponses larger than limits.input_responses_bytes', async () => {
      const taskId = await create('task_ask', {});
      const body = await rpc('tasks/update', {
        taskId,
        inputResponses: { big: { action: 'accept', content: { text: 'y'.repeat(200_000) } } },
      });
      expect(body.error).toMatchObject({
        code: -32602,
        data: { limit: 'limits.input_responses_bytes' },
      });
      await rpc('tasks/cancel', { taskId });
    });

    it('refuses an answer that is not a result of the question asked', async () => {
      const taskId = await create('task_ask', {});
      let asked: Record<string, unknown> | undefined;
      for (let i = 0; i < 100 && asked === undefined; i++) {
        const body = await rpc('tasks/get', { taskId });
        if (body.result?.status === 'input_required')
          asked = body.result.inputRequests as Record<string, unknown>;
        else await delay(100);
      }
      const [key] = Object.keys(asked ?? {});
      const wrong = await rpc('tasks/update', {
        taskId,
        inputResponses: { [key]: { action: 'maybe' } },
      });
      expect(wrong.error).toMatchObject({ code: -32602, data: { field: `inputResponses.${key}` } });
      // Unknown keys are ignored, as the extension says; the question is still outstanding.
      expect((await rpc('tasks/update', { taskId, inputResponses: { nope: {} } })).result).toEqual(
        expect.objectContaining({ resultType: 'complete' }),
      );
      expect((await rpc('tasks/get', { taskId })).result?.status).toBe('input_required');
      await rpc('tasks/cancel', { taskId });
      expect((await settled(taskId)).status).toBe('cancelled');
    }, 30_000);

    it('refuses a listen request for more task ids than limits.subscriptions_per_session', async () => {
      const client = new ClientV2(
        { name: 'tasks-flood', version: '1.0.0' },
        { capabilities: TASKS_CAPABILITIES, versionNegotiation: { mode: { pin: MODERN } } },
      );
      await client.connect(new HttpV2(new URL(`${gateway.baseUrl}/mcp`)));
      try {
        const ids = Array.from({ length: 50 }, (_, i) => `task-${i}`);
        await expect(client.listen({ taskIds: ids } as never)).rejects.toMatchObject({
          code: -32602,
          data: { limit: 'limits.subscriptions_per_session' },
        });
      } finally {
        await client.close();
      }
    });
  });
});
