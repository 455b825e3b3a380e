/**
 * A private value kept on an object under a symbol of its own, not
 * enumerable (spreads and JSON.stringify leave it behind): facts about a
 * request that live exactly as long as the request's objects. A WeakMap
 * does the same, but on the call path, churning through thousands of keys
 * a second, its table grows in old space and every scavenge must walk it.
 */
export class ObjectSlot<T> {
  private readonly key: symbol;

  constructor(name: string) {
    this.key = Symbol(name);
  }

  get(target: object): T | undefined {
    return (target as Record<symbol, T | undefined>)[this.key];
  }

  set(target: object, value: T): T {
    Object.defineProperty(target, this.key, {
      value,
      writable: true,
      enumerable: false,
      configurable: true,
    });
    return value;
  }
}
