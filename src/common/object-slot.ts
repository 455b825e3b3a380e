/**
 * A private value kept on an object under a symbol of its own, not
 * enumerable (spreads and JSON.stringify leave it behind): facts about a
 * request that live exactly as long as the request's objects. A WeakMap
 * does the same, but on the call path, churning through thousands of keys
 * a second, its table grows in old space and every scavenge must walk it.
 */
export class ObjectSlot<T> {
  protected readonly key: symbol;

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

/**
 * A private value on a class instance (a request context) under a symbol of
 * its own, set by plain assignment: JSON.stringify and Object.keys leave it
 * out as they do ObjectSlot's, but a spread would copy it, so it is for
 * objects no one spreads. Defining a non-enumerable property costs about 30
 * times an assignment (2.4k instructions against 80, callgrind), and the
 * governance guards keep two such values per call.
 */
export class InstanceSlot<T> extends ObjectSlot<T> {
  override set(target: object, value: T): T {
    (target as Record<symbol, T>)[this.key] = value;
    return value;
  }
}
