import { applyHeapSizing } from './heap-sizing';

describe('applyHeapSizing', () => {
  it('sets the growing factor when the operator did not', () => {
    expect(applyHeapSizing([], '')).toBe(true);
  });

  it("leaves an operator's own value alone, from a node flag or NODE_OPTIONS", () => {
    expect(applyHeapSizing(['--heap-growing-percent=100'], '')).toBe(false);
    expect(applyHeapSizing([], '--max-old-space-size=512 --heap_growing_percent=80')).toBe(false);
  });
});
