import { readAllPages } from './upstream-relay.pages';
import { UPSTREAM_LIST_RELAY_LIMITS } from './upstream-list-relay.limits';

describe('readAllPages', () => {
  it('stops an upstream that pages forever at the page limit and says it cut', async () => {
    let pages = 0;
    const { items, cut } = await readAllPages((cursor) => {
      pages++;
      return Promise.resolve({ items: [cursor ?? 'first'], nextCursor: `after-${pages}` });
    });
    expect(pages).toBe(UPSTREAM_LIST_RELAY_LIMITS.maxListPages);
    expect(items).toHaveLength(UPSTREAM_LIST_RELAY_LIMITS.maxListPages);
    expect(cut).toBe(true);
  });

  it('keeps at most maxEntriesPerServer entries of one huge page', async () => {
    const huge = Array.from({ length: 50_000 }, (_, i) => i);
    const { items, cut } = await readAllPages(() => Promise.resolve({ items: huge }));
    expect(items).toHaveLength(UPSTREAM_LIST_RELAY_LIMITS.maxEntriesPerServer);
    expect(cut).toBe(true);
  });

  it('reads every page of a well-behaved upstream', async () => {
    const book: Record<string, { items: string[]; nextCursor?: string }> = {
      start: { items: ['a', 'b'], nextCursor: 'two' },
      two: { items: ['c'] },
    };
    const { items, cut } = await readAllPages((cursor) => Promise.resolve(book[cursor ?? 'start']));
    expect(items).toEqual(['a', 'b', 'c']);
    expect(cut).toBe(false);
  });
});
