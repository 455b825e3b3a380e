import { applyHeapSizing, HEAP_GROWING_PERCENT } from './heap-sizing';

describe('applyHeapSizing', () => {
  it('sets the growing factor when the operator did not', () => {
    expect(applyHeapSizing('http', [], '')).toBe(true);
    expect(applyHeapSizing('stdio', [], '')).toBe(true);
  });

  it('lets the stdio gateway grow further than the HTTP one between full collections', () => {
    expect(HEAP_GROWING_PERCENT.stdio).toBeGreaterThan(HEAP_GROWING_PERCENT.http);
  });

  it("leaves an operator's own value alone, from a node flag or NODE_OPTIONS", () => {
    expect(applyHeapSizing('stdio', ['--heap-growing-percent=100'], '')).toBe(false);
    expect(applyHeapSizing('http', [], '--max-old-space-size=512 --heap_growing_percent=80')).toBe(
      false,
    );
  });
});
