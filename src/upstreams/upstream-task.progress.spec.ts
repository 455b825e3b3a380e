import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { UPSTREAM_TASK_LIMITS } from './upstream-task.limits';
import { UpstreamTaskProgress } from './upstream-task.progress';

describe('UpstreamTaskProgress', () => {
  const step = UPSTREAM_TASK_LIMITS.statusStep;

  function relay() {
    const reports: Progress[] = [];
    let signs = 0;
    const progress = new UpstreamTaskProgress(
      (report) => reports.push(report),
      () => signs++,
    );
    return { progress, reports, signs: () => signs };
  }

  it("relays the upstream's reports while they grow, and counts each as a sign of life", () => {
    const { progress, reports, signs } = relay();
    progress.onprogress({ progress: 1, total: 4, message: 'one' });
    progress.onprogress({ progress: 1 });
    progress.onprogress({ progress: 0.5 });
    progress.onprogress({ progress: Number.NaN });
    progress.onprogress({ progress: 3 });
    expect(reports).toEqual([
      { progress: 1, total: 4, message: 'one' },
      { progress: 3, total: 4 },
    ]);
    expect(signs()).toBe(5);
  });

  it('relays each new statusMessage a small step past the last value', () => {
    const { progress, reports } = relay();
    progress.status({ status: 'working', statusMessage: 'gathering' });
    progress.onprogress({ progress: 2, total: 5 });
    progress.status({ status: 'working', statusMessage: 'analysing' });
    progress.onprogress({ progress: 3 });
    expect(reports).toEqual([
      { progress: step, message: 'gathering' },
      { progress: 2, total: 5 },
      { progress: 2 + step, total: 5, message: 'analysing' },
      { progress: 3, total: 5 },
    ]);
  });

  it('ignores a status it already saw; a change without a message is only a sign of life', () => {
    const { progress, reports, signs } = relay();
    progress.status({ status: 'working', statusMessage: 'gathering' });
    progress.status({ status: 'working', statusMessage: 'gathering' });
    progress.status({ status: 'input_required' });
    progress.status({ status: 'input_required' });
    expect(reports).toEqual([{ progress: step, message: 'gathering' }]);
    expect(signs()).toBe(2);
  });

  it('tells nobody anything once detached', () => {
    const { progress, reports, signs } = relay();
    progress.detach();
    progress.onprogress({ progress: 1 });
    progress.status({ status: 'completed', statusMessage: 'done' });
    expect(reports).toEqual([]);
    expect(signs()).toBe(0);
  });

  it("cuts an upstream's long message, so a status stays readable", () => {
    const { progress, reports } = relay();
    progress.status({ status: 'working', statusMessage: 'z'.repeat(5_000) });
    const message = reports[0]?.message ?? '';
    expect(message).toHaveLength(UPSTREAM_TASK_LIMITS.maxMessageChars);
    expect(message.endsWith('…')).toBe(true);
  });
});
