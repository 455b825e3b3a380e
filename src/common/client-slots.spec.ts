import { ClientSlots } from './client-slots';

describe('ClientSlots', () => {
  it('refuses past the per-client cap, then past the total, and takes nothing when it refuses', () => {
    const slots = new ClientSlots(2, 3);
    expect(slots.acquire('a')).toBeUndefined();
    expect(slots.acquire('a')).toBeUndefined();
    expect(slots.acquire('a')).toBe('per_client');
    expect(slots.heldBy('a')).toBe(2);
    expect(slots.acquire('b')).toBeUndefined();
    expect(slots.acquire('c')).toBe('total');
    expect(slots.size).toBe(3);
    expect(slots.heldBy('c')).toBe(0);
  });

  it('frees a slot on release and forgets a client that holds nothing', () => {
    const slots = new ClientSlots(1, 10);
    expect(slots.acquire('a')).toBeUndefined();
    expect(slots.acquire('a')).toBe('per_client');
    slots.release('a');
    expect(slots.clients).toBe(0);
    expect(slots.size).toBe(0);
    expect(slots.acquire('a')).toBeUndefined();
  });

  it('ignores a release for a client that holds nothing', () => {
    const slots = new ClientSlots(1, 1);
    slots.release('ghost');
    expect(slots.size).toBe(0);
    expect(slots.acquire('a')).toBeUndefined();
    expect(slots.acquire('b')).toBe('total');
  });
});
