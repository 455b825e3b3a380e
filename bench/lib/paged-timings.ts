import { Headers } from './mcp-http';
import { fetchAllPages, fetchFirstPage } from './paging';
import { timeQuery } from './query-timing';
import { QueryTiming } from '../report/results';

const FIRST_PAGE_REPEATS = 20;
const ALL_PAGES_REPEATS = 3;

/**
 * Times a paged MCP list: the first page (cold, then the median of 20), every
 * page in sequence (3 times), and from those the time of one page on average
 * and the slowest page seen. The < 50 ms target applies to single pages.
 */
export async function pagedListTimings(
  url: string,
  headers: Headers,
  method: string,
  key: string,
): Promise<QueryTiming[]> {
  const first = await timeQuery({
    label: `${method}, first page`,
    repeats: FIRST_PAGE_REPEATS,
    targeted: true,
    run: async () => `${await fetchFirstPage(url, headers, method, key)} ${key}`,
  });
  let pages = 1;
  let slowest = 0;
  const all = await timeQuery({
    label: `${method}, all pages in sequence`,
    repeats: ALL_PAGES_REPEATS,
    targeted: false,
    run: async () => {
      const fetched = await fetchAllPages(url, headers, method, key);
      pages = fetched.pages;
      slowest = Math.max(slowest, fetched.slowestPageMs);
      return `${fetched.items} ${key} in ${fetched.pages} pages`;
    },
  });
  const perPage: QueryTiming = {
    label: `${method}, one page on average (all-pages runs)`,
    firstMs: all.firstMs / pages,
    medianMs: all.medianMs / pages,
    repeats: all.repeats,
    detail: `all-pages time / ${pages}`,
    targeted: true,
  };
  const worst: QueryTiming = {
    label: `${method}, slowest single page seen`,
    firstMs: slowest,
    medianMs: slowest,
    repeats: 0,
    detail: `max over ${pages * (ALL_PAGES_REPEATS + 1)} page requests`,
    targeted: false,
  };
  return [first, all, perPage, worst];
}
