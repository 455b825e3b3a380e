import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { GovernanceDeniedError } from '../governance/governance-denied.error';
import type { HandlerContext } from '../tools/handler-context';
import { approvalMessage, requireApproval } from './upstream-tool.approval';
import { APPROVAL_ARGUMENTS_SUMMARY_CHARS, APPROVAL_TIMEOUT_MS } from './upstream-relay.limits';
import type { UpstreamRecord } from './upstream-record';

const record = { server_id: 'github', display_name: 'GitHub' } as UpstreamRecord;

describe('approvalMessage', () => {
  it('names the server, the tool, the exposed name and the arguments', () => {
    const message = approvalMessage(record, 'create_issue', 'github__create_issue', {
      title: 'Bug',
    });
    expect(message).toContain('"create_issue"');
    expect(message).toContain('GitHub (github)');
    expect(message).toContain('github__create_issue');
    expect(message).toContain('{"title":"Bug"}');
  });

  it('shows at most the summary limit of the arguments and says how much is left out', () => {
    const message = approvalMessage(record, 'create_issue', 'github__create_issue', {
      body: 'x'.repeat(10_000),
    });
    expect(message.length).toBeLessThan(APPROVAL_ARGUMENTS_SUMMARY_CHARS + 300);
    expect(message).toMatch(/\(\d+ more characters not shown\)$/);
  });
});

/** A handler context whose client answers elicitation with `answer` (the outcomes e2e tests cannot wait for). */
function contextAnswering(answer: () => Promise<Record<string, unknown>>, signal?: AbortSignal) {
  const reported: number[] = [];
  const timeouts: Array<number | undefined> = [];
  const context = {
    signal: signal ?? new AbortController().signal,
    elicit: (_params: Record<string, unknown>, options?: { timeoutMs?: number }) => {
      timeouts.push(options?.timeoutMs);
      return answer();
    },
    reportCost: (amount: number) => reported.push(amount),
  } as unknown as HandlerContext;
  return { context, reported, timeouts };
}

async function refusal(answer: () => Promise<Record<string, unknown>>) {
  const { context, reported } = contextAnswering(answer);
  const error = await requireApproval(record, 'create_issue', 'github__create_issue', {}, context)
    .then(() => undefined)
    .catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(GovernanceDeniedError);
  expect(reported).toEqual([0]);
  return (error as GovernanceDeniedError).data;
}

describe('requireApproval', () => {
  it('resolves on accept with approve: true, waiting at most the approval timeout', async () => {
    const { context, reported, timeouts } = contextAnswering(() =>
      Promise.resolve({ action: 'accept', content: { approve: true } }),
    );
    await requireApproval(record, 'create_issue', 'github__create_issue', {}, context);
    expect(reported).toEqual([]);
    expect(timeouts).toEqual([APPROVAL_TIMEOUT_MS]);
  });

  it('refuses with reason timeout when the client does not answer in time', async () => {
    const data = await refusal(() =>
      Promise.reject(new GatewayError(ErrorCode.Timeout, 'elicitation/create timed out')),
    );
    expect(data).toMatchObject({
      reason: 'approval_required',
      code: 'mcp_policy_denied',
      approval: 'timeout',
    });
  });

  it('refuses with elicitation_failed when the client answers with an error', async () => {
    const data = await refusal(() =>
      Promise.reject(new GatewayError(ErrorCode.ExecutionError, 'Client answered with error')),
    );
    expect(data).toMatchObject({ approval: 'elicitation_failed' });
  });

  it('lets a cancelled call end as cancelled, not as a refusal', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by the client');
    controller.abort(reason);
    const { context, reported } = contextAnswering(
      () => Promise.reject(new GatewayError(ErrorCode.ExecutionError, 'aborted')),
      controller.signal,
    );
    await expect(
      requireApproval(record, 'create_issue', 'github__create_issue', {}, context),
    ).rejects.toBe(reason);
    expect(reported).toEqual([]);
  });
});
