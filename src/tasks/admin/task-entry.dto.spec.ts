import { ArgumentRedactor, REDACTED } from '../../ledger/argument-redactor';
import { LEDGER_ERROR_MESSAGE_MAX } from '../../ledger/ledger.constants';
import { TaskRecord } from '../task-record';
import { toTaskEntry } from './task-entry.dto';

const T0 = Date.UTC(2026, 10, 27, 9, 0, 0);

function task(overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    taskId: 'task-1',
    principal: 'owner\u0000alpha',
    clientId: 'alpha',
    tool: 'inventory_recount',
    params: { name: 'inventory_recount', arguments: { api_key: 'sk-live-123', warehouse: 'east' } },
    status: 'working',
    statusMessage: 'queued',
    createdAt: T0,
    lastUpdatedAt: T0,
    ttlMs: 3_600_000,
    pollIntervalMs: 1000,
    inputRequests: {},
    answers: { confirm: { action: 'accept' } },
    askedKeys: ['confirm'],
    cancelRequested: false,
    attempts: 0,
    origin: {
      requestId: 7,
      traceId: 'trace-1',
      sessionId: 'session-1',
      sessionOwner: 'owner',
      transport: 'streamable-http',
      protocolVersion: '2026-07-28',
      clientCapabilities: {},
    },
    ...overrides,
  };
}

describe('toTaskEntry', () => {
  const redactor = new ArgumentRedactor(['(^|_)key$', 'token']);

  it('shows a queued task: no start, no end, no runner, no cost yet', () => {
    expect(toTaskEntry(task(), redactor)).toEqual({
      taskId: 'task-1',
      clientId: 'alpha',
      tool: 'inventory_recount',
      status: 'working',
      statusMessage: 'queued',
      createdAt: '2026-11-27T09:00:00.000Z',
      lastUpdatedAt: '2026-11-27T09:00:00.000Z',
      startedAt: null,
      finishedAt: null,
      attempts: 0,
      runner: null,
      cost: null,
      traceId: 'trace-1',
      cancelRequested: false,
      error: null,
    });
  });

  it('leaves out the arguments, answers, result and error data', () => {
    const entry = toTaskEntry(
      task({
        status: 'failed',
        result: { content: [{ type: 'text', text: 'the result payload' }] },
        error: { code: -32005, message: 'It broke', data: { echoed: 'sk-live-123' } },
        startedAt: T0 + 10,
        finishedAt: T0 + 20,
        runner: 'host:42',
        cost: 3,
        attempts: 1,
      }),
      redactor,
    );
    expect(entry).toMatchObject({
      error: { code: -32005, message: 'It broke' },
      startedAt: '2026-11-27T09:00:00.010Z',
      finishedAt: '2026-11-27T09:00:00.020Z',
      runner: 'host:42',
      cost: 3,
    });
    const text = JSON.stringify(entry);
    for (const hidden of ['sk-live-123', 'east', 'the result payload', 'accept', 'owner']) {
      expect(text).not.toContain(hidden);
    }
  });

  it('redacts messages as the ledger does, then cuts them to its length', () => {
    const entry = toTaskEntry(
      task({
        status: 'failed',
        statusMessage: 'Upstream refused token=abc123 for this call',
        error: { code: -32005, message: `api_key: "sk-live-123" ${'x'.repeat(3000)}` },
      }),
      redactor,
    );
    expect(entry.statusMessage).toBe(`Upstream refused token=${REDACTED} for this call`);
    expect(entry.error?.message.startsWith(`api_key: "${REDACTED}" xxx`)).toBe(true);
    expect(entry.error?.message).toHaveLength(LEDGER_ERROR_MESSAGE_MAX);
    expect(entry.error?.message.endsWith('…')).toBe(true);
  });

  it('shows no error for a task that did not fail', () => {
    const entry = toTaskEntry(
      task({ status: 'cancelled', error: { code: -32800, message: 'gone' } }),
      redactor,
    );
    expect(entry.error).toBeNull();
  });
});
