import { withDeadline } from './with-deadline';

describe('withDeadline', () => {
  it('gives the answer of work that settles in time', async () => {
    await expect(withDeadline(() => Promise.resolve(42), 1_000)).resolves.toBe(42);
    await expect(withDeadline(() => 'sync', 1_000)).resolves.toBe('sync');
  });

  it('passes on the failure of work, thrown or rejected', async () => {
    await expect(withDeadline(() => Promise.reject(new Error('refused')), 1_000)).rejects.toThrow(
      'refused',
    );
    await expect(
      withDeadline(() => {
        throw new Error('thrown');
      }, 1_000),
    ).rejects.toThrow('thrown');
  });

  it('rejects naming the deadline when work never settles', async () => {
    await expect(withDeadline(() => new Promise<never>(() => undefined), 20)).rejects.toThrow(
      'no answer within 20 ms',
    );
  });
});
