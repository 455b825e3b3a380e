import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { setTimeout as delay } from 'node:timers/promises';
import { GatewayError } from '../../src/errors/gateway.error';
import { META_OUTPUT_TRUNCATED } from '../../src/upstreams/upstream-connection.constants';
import { UpstreamConnection } from '../../src/upstreams/upstream.connection';
import { taskUpstream } from '../support/task-upstream-record';

/**
 * Upstream tools that declare execution.taskSupport (MCP 2025-11-25), called
 * through UpstreamConnection against a real SDK McpServer child with the
 * SDK's task support: the call becomes an upstream task the gateway follows
 * to its result, and the record's budgets bound the whole task.
 */
describe('UpstreamConnection with task-augmented tools', () => {
  const open: UpstreamConnection[] = [];
  const connection = (budgets: Parameters<typeof taskUpstream>[0] = {}) => {
    const created = new UpstreamConnection(taskUpstream(budgets));
    open.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((each) => each.close()));
  });

  const textOf = (result: CallToolResult): string =>
    (result.content[0] as { type: 'text'; text: string }).text;

  interface TaskLog {
    created: Record<string, number>;
    cancelled: number;
    maxRunning: number;
    running: number;
  }
  const taskLog = async (upstream: UpstreamConnection): Promise<TaskLog> =>
    JSON.parse(textOf(await upstream.callTool('task_log', {}))) as TaskLog;

  /** Polls the fixture's log until `reached` holds (bounded). */
  async function logUntil(
    upstream: UpstreamConnection,
    reached: (log: TaskLog) => boolean,
  ): Promise<TaskLog> {
    for (let attempt = 0; attempt < 300; attempt++) {
      const log = await taskLog(upstream);
      if (reached(log)) return log;
      await delay(100);
    }
    throw new Error(
      `the task upstream never got there: ${JSON.stringify(await taskLog(upstream))}`,
    );
  }

  it('lists the declared task support of each tool', async () => {
    const tools = await connection().listTools();
    const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution]));
    expect(support).toMatchObject({
      stepwise: { taskSupport: 'optional' },
      task_only: { taskSupport: 'required' },
      endless: { taskSupport: 'required' },
    });
  }, 60_000);

  it('calls a task-required tool as a task and returns the task result', async () => {
    const upstream = connection();
    const result = await upstream.callTool(
      'task_only',
      { text: 'hoot', ms: 300 },
      { taskSupport: 'required' },
    );
    expect(textOf(result)).toBe('task said hoot');
    expect(result.isError).toBeFalsy();
    // tasks/result names the upstream's task in _meta; the caller never sees that id.
    expect(result._meta?.['io.modelcontextprotocol/related-task']).toBeUndefined();
    expect((await taskLog(upstream)).created).toEqual({ task_only: 1 });
  }, 60_000);

  it('relays the progress of the task as increasing values, and returns its structured result', async () => {
    const upstream = connection();
    const reports: Progress[] = [];
    const result = await upstream.callTool(
      'stepwise',
      { steps: 3, stepMs: 200 },
      { taskSupport: 'optional', onprogress: (report) => reports.push(report) },
    );
    expect(textOf(result)).toBe('counted 3 steps');
    expect(result.structuredContent).toEqual({ steps: 3 });
    expect((await taskLog(upstream)).created).toEqual({ stepwise: 1 });
    const values = reports.map((report) => report.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    // Each step's notification is written before the result is stored, so all three came first.
    expect(reports.map((report) => report.message)).toEqual(
      expect.arrayContaining(['counted 1', 'counted 2', 'counted 3']),
    );
    expect(reports.every((report) => report.total === undefined || report.total === 3)).toBe(true);
  }, 60_000);

  it("returns a failed task's isError result as the upstream stored it", async () => {
    const result = await connection().callTool(
      'task_only',
      { text: 'no mice', fail: true },
      { taskSupport: 'required' },
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('refused: no mice');
  }, 60_000);

  it('holds a max_concurrency slot for the whole task', async () => {
    const upstream = connection({ max_concurrency: 1, tool_timeout_ms: 20_000 });
    const results = await Promise.all(
      ['first', 'second'].map((text) =>
        upstream.callTool('task_only', { text, ms: 600 }, { taskSupport: 'required' }),
      ),
    );
    expect(results.map(textOf)).toEqual(['task said first', 'task said second']);
    expect((await taskLog(upstream)).maxRunning).toBe(1);
  }, 60_000);

  it("cuts a task's result over max_tool_output_bytes", async () => {
    const result = await connection({ max_tool_output_bytes: 4_096 }).callTool(
      'task_only',
      { text: 'big', bytes: 100_000 },
      { taskSupport: 'required' },
    );
    expect(Buffer.byteLength(textOf(result))).toBeLessThanOrEqual(4_096);
    expect(result._meta?.[META_OUTPUT_TRUNCATED]).toBeDefined();
  }, 60_000);

  it('times out a task without progress after tool_timeout_ms (mcp_timeout) and cancels it upstream', async () => {
    const upstream = connection({ tool_timeout_ms: 1_000 });
    await upstream.connect();
    const error = await upstream
      .callTool('endless', {}, { taskSupport: 'required' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe(-32004);
    expect((error as GatewayError).data).toMatchObject({ code: 'mcp_timeout', tool: 'endless' });
    // The cancellation is sent before the call gives up, so the upstream has it already.
    expect(await taskLog(upstream)).toMatchObject({ created: { endless: 1 }, cancelled: 1 });
    await logUntil(upstream, (log) => log.running === 0);
  }, 60_000);

  it("cancels the upstream task when the caller's signal aborts, with the caller's reason", async () => {
    const upstream = connection();
    const controller = new AbortController();
    const call = upstream
      .callTool('endless', {}, { taskSupport: 'required', signal: controller.signal })
      .catch((e: unknown) => e);
    await logUntil(upstream, (log) => log.created.endless === 1);
    const reason = new Error('the caller went away');
    controller.abort(reason);
    expect(await call).toBe(reason);
    // Its work stops once it sees the cancellation.
    await logUntil(upstream, (log) => log.cancelled === 1 && log.running === 0);
  }, 60_000);
});
