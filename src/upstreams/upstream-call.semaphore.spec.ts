import { UpstreamCallSemaphore } from './upstream-call.semaphore';

describe('UpstreamCallSemaphore', () => {
  it('grants up to max at once and hands a freed slot to the first waiter', async () => {
    const semaphore = new UpstreamCallSemaphore(1);
    const first = await semaphore.acquire(1_000);
    const second = semaphore.acquire(1_000);
    expect(semaphore.waiting).toBe(1);
    first?.();
    const granted = await second;
    expect(granted).toBeDefined();
    expect(semaphore.active).toBe(1);
    granted?.();
    granted?.();
    expect(semaphore.active).toBe(0);
  });

  it('gives a waiter past its timeout nothing and forgets it', async () => {
    const semaphore = new UpstreamCallSemaphore(1);
    await semaphore.acquire(1_000);
    await expect(semaphore.acquire(20)).resolves.toBeUndefined();
    expect(semaphore.waiting).toBe(0);
  });

  it('rejects a waiter whose signal aborts with the signal reason', async () => {
    const semaphore = new UpstreamCallSemaphore(1);
    await semaphore.acquire(1_000);
    const controller = new AbortController();
    const waiting = semaphore.acquire(1_000, controller.signal);
    controller.abort(new Error('cancelled by client'));
    await expect(waiting).rejects.toThrow('cancelled by client');
    expect(semaphore.waiting).toBe(0);
  });
});
