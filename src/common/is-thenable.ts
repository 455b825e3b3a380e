/** A promise, or anything awaitable like one: the mark of a step that has not answered yet. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
