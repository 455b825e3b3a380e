import { LEDGER_STORE, LedgerStore } from '../../src/ledger/ledger-store';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { createTask, modernRequest, TaskView, waitForTask } from '../support/modern-task-requests';

/**
 * The demo pack's inventory_recount on the real HTTP gateway, as MCP
 * 2026-07-28 clients see it: a task for a client that accepts tasks, its
 * progress in the task's statusMessage, stopped by tasks/cancel; a plain
 * call for a client that does not.
 */

const TOOL = 'inventory_recount';
/** "Counted <sku> (<done>/<total>)": the handler's progress as the task shows it. */
const COUNTED = /^Counted [A-Z0-9-]+ \((\d+)\/30\)$/;

const countedSoFar = (task: TaskView): number =>
  Number(COUNTED.exec(task.statusMessage ?? '')?.[1] ?? 0);

describe('inventory_recount as a task', () => {
  let gateway: HttpGatewayHandle;

  beforeAll(async () => {
    gateway = await startHttpGateway();
  }, 60_000);
  afterAll(() => gateway?.close());

  it('answers a client that does not accept tasks with the recount itself', async () => {
    const reply = await modernRequest(
      gateway.baseUrl,
      'no-tasks',
      'tools/call',
      { name: TOOL, arguments: { secondsPerItem: 0 } },
      false,
    );
    expect(reply.result?.resultType).not.toBe('task');
    expect(reply.result?.structuredContent).toMatchObject({ scope: 'all', counted: 30 });
  });

  it('shows its progress as the statusMessage, then its result', async () => {
    // 30 products at 0.3 s: about 9 s, with a progress write about every second.
    const created = await createTask(gateway.baseUrl, 'watcher', TOOL, { secondsPerItem: 0.3 });
    expect(created).toMatchObject({ status: 'working', statusMessage: 'queued' });

    const seen: number[] = [];
    const done = await waitForTask(
      gateway.baseUrl,
      'watcher',
      created.taskId,
      (task) => {
        const counted = countedSoFar(task);
        if (counted > 0 && counted !== seen.at(-1)) seen.push(counted);
        return task.status !== 'working';
      },
      'an end',
    );
    expect(done.status).toBe('completed');
    expect(done.result).toMatchObject({ structuredContent: { scope: 'all', counted: 30 } });
    // The messages moved on as the count did, never backwards.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  }, 90_000);

  it('stops when its client cancels it, and the ledger records the call as cancelled', async () => {
    // One product a second: 30 s if nobody stops it.
    const created = await createTask(gateway.baseUrl, 'canceller', TOOL, { secondsPerItem: 1 });
    const counting = await waitForTask(
      gateway.baseUrl,
      'canceller',
      created.taskId,
      (task) => countedSoFar(task) > 0,
      'counting',
    );

    const cancel = await modernRequest(gateway.baseUrl, 'canceller', 'tasks/cancel', {
      taskId: created.taskId,
    });
    expect(cancel).toMatchObject({ result: {} });
    const ended = await waitForTask(
      gateway.baseUrl,
      'canceller',
      created.taskId,
      (task) => task.status !== 'working',
      'an end',
    );
    expect(ended).toMatchObject({ status: 'cancelled', statusMessage: 'Cancelled on request' });
    expect(ended.result).toBeUndefined();
    expect(countedSoFar(counting)).toBeLessThan(30);

    const rows = await gateway.app
      .get<LedgerStore>(LEDGER_STORE)
      .query({ clientId: 'canceller', limit: 10 });
    expect(rows.map((row) => [row.target, row.outcome])).toEqual([[TOOL, 'cancelled']]);
  }, 90_000);
});
