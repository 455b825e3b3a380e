import { completionValues } from './completion-values';
import { MAX_COMPLETION_VALUES } from './prompts.constants';

describe('completionValues', () => {
  const WAREHOUSES = ['west', 'central', 'east', 'West-2'];

  it('keeps case-insensitive prefix matches in the given order', () => {
    expect(completionValues(WAREHOUSES, 'WE')).toEqual({
      values: ['west', 'West-2'],
      total: 2,
      hasMore: false,
    });
    expect(completionValues(WAREHOUSES, 'c')).toEqual({
      values: ['central'],
      total: 1,
      hasMore: false,
    });
  });

  it('matches at the start only', () => {
    expect(completionValues(['eastern', 'northeast'], 'east').values).toEqual(['eastern']);
  });

  it('offers everything for an empty prefix and nothing for no match', () => {
    expect(completionValues(WAREHOUSES, '')).toEqual({
      values: WAREHOUSES,
      total: 4,
      hasMore: false,
    });
    expect(completionValues(WAREHOUSES, 'north')).toEqual({ values: [], total: 0, hasMore: false });
  });

  it('sends each value once', () => {
    expect(completionValues(['a', 'b', 'a', 'ab'], 'a')).toEqual({
      values: ['a', 'ab'],
      total: 2,
      hasMore: false,
    });
  });

  it('caps the values at 100 and reports the total and hasMore', () => {
    const many = Array.from({ length: 250 }, (_, i) => `sku-${String(i).padStart(3, '0')}`);
    const all = completionValues(many, 'SKU-');
    expect(all.values).toHaveLength(MAX_COMPLETION_VALUES);
    expect(all.values).toEqual(many.slice(0, 100));
    expect(all).toMatchObject({ total: 250, hasMore: true });

    const narrowed = completionValues(many, 'sku-1');
    expect(narrowed).toMatchObject({ total: 100, hasMore: false });
    expect(narrowed.values).toHaveLength(100);

    expect(completionValues(many.slice(0, 101), '')).toMatchObject({ total: 101, hasMore: true });
  });

  it('accepts any iterable', () => {
    expect(completionValues(new Set(['tent', 'tarp']), 'ta').values).toEqual(['tarp']);
  });
});
