import { InstanceSlot, ObjectSlot } from './object-slot';

describe('ObjectSlot', () => {
  it('keeps a value per object, apart from other slots and objects', () => {
    const first = new ObjectSlot<number>('first');
    const second = new ObjectSlot<string>('second');
    const a = {};
    const b = {};
    first.set(a, 1);
    second.set(a, 'one');
    expect(first.get(a)).toBe(1);
    expect(second.get(a)).toBe('one');
    expect(first.get(b)).toBeUndefined();
    first.set(a, 2);
    expect(first.get(a)).toBe(2);
  });

  it('stays out of JSON, keys and spreads', () => {
    const slot = new ObjectSlot<string>('hidden');
    const message = { jsonrpc: '2.0', id: 1 };
    slot.set(message, 'cached text');
    expect(JSON.stringify(message)).toBe('{"jsonrpc":"2.0","id":1}');
    expect(Object.keys(message)).toEqual(['jsonrpc', 'id']);
    expect(slot.get({ ...message })).toBeUndefined();
  });
});

describe('InstanceSlot', () => {
  it('keeps a value per object, out of JSON and keys', () => {
    class Context {
      constructor(readonly id: number) {}
    }
    const slot = new InstanceSlot<string>('state');
    const context = new Context(1);
    expect(slot.get(context)).toBeUndefined();
    slot.set(context, 'kept');
    expect(slot.get(context)).toBe('kept');
    expect(slot.get(new Context(2))).toBeUndefined();
    expect(JSON.stringify(context)).toBe('{"id":1}');
    expect(Object.keys(context)).toEqual(['id']);
  });
});
