import { RequestAbort } from './request-abort';

const never = () => new Promise<never>(() => undefined);

describe('RequestAbort', () => {
  it('settles a race with the work when nothing aborts', async () => {
    const abort = new RequestAbort();
    await expect(abort.race(Promise.resolve(42))).resolves.toBe(42);
    await expect(abort.race(Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    expect(abort.aborted).toBe(false);
  });

  it('rejects every pending race with the reason at once, even if the work never ends', async () => {
    const abort = new RequestAbort();
    const first = abort.race(never());
    const second = abort.race(never());
    const reason = new Error('cancelled');
    abort.abort(reason);
    await expect(first).rejects.toBe(reason);
    await expect(second).rejects.toBe(reason);
    expect(abort.aborted).toBe(true);
    expect(abort.reason).toBe(reason);
  });

  it('rejects a race started after the abort, and keeps the first reason', async () => {
    const abort = new RequestAbort();
    const reason = new Error('first');
    abort.abort(reason);
    abort.abort(new Error('second'));
    const late = Promise.reject(new Error('ignored'));
    await expect(abort.race(late)).rejects.toBe(reason);
  });

  it('gives a standard signal that follows the abort, made before or after it', () => {
    const early = new RequestAbort();
    const signal = early.signal;
    expect(signal.aborted).toBe(false);
    const seen: unknown[] = [];
    signal.addEventListener('abort', () => seen.push(signal.reason));
    const stop = new Error('stop');
    early.abort(stop);
    expect(seen).toEqual([stop]);
    expect(early.signal).toBe(signal);

    const late = new RequestAbort();
    const gone = new Error('gone');
    late.abort(gone);
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe(gone);
  });

  it('does not abort once the work has settled', async () => {
    const abort = new RequestAbort();
    await abort.race(Promise.resolve('done'));
    abort.abort(new Error('too late'));
    await expect(abort.race(Promise.resolve('again'))).rejects.toThrow('too late');
  });
});
