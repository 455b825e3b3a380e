import { applyHeapSizing, HEAP_GROWING_PERCENT } from './heap-sizing';

describe('applyHeapSizing', () => {
  it('sets what the operator did not: the growing factor, and no pretenuring', () => {
    expect(applyHeapSizing('http', [], '')).toEqual([
      `--heap-growing-percent=${HEAP_GROWING_PERCENT.http}`,
      '--no-allocation-site-pretenuring',
    ]);
    expect(applyHeapSizing('stdio', [], '')).toEqual([
      `--heap-growing-percent=${HEAP_GROWING_PERCENT.stdio}`,
      '--no-allocation-site-pretenuring',
    ]);
  });

  it('lets the stdio gateway grow further than the HTTP one between full collections', () => {
    expect(HEAP_GROWING_PERCENT.stdio).toBeGreaterThan(HEAP_GROWING_PERCENT.http);
  });

  it("leaves an operator's own values alone, from a node flag or NODE_OPTIONS", () => {
    expect(applyHeapSizing('stdio', ['--heap-growing-percent=100'], '')).toEqual([
      '--no-allocation-site-pretenuring',
    ]);
    expect(
      applyHeapSizing('http', [], '--max-old-space-size=512 --heap_growing_percent=80'),
    ).toEqual(['--no-allocation-site-pretenuring']);
    expect(
      applyHeapSizing('stdio', ['--allocation-site-pretenuring'], '--heap-growing-percent=70'),
    ).toEqual([]);
    expect(applyHeapSizing('stdio', [], '--no_allocation_site_pretenuring')).toEqual([
      `--heap-growing-percent=${HEAP_GROWING_PERCENT.stdio}`,
    ]);
  });
});
