import { UPSTREAM_LIST_RELAY_LIMITS } from './upstream-list-relay.limits';

/** One page of an upstream list, whatever it lists. */
export interface UpstreamPage<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * Walks every page of an upstream's prompts/list or resources/list, at most
 * `maxListPages` pages and `maxEntriesPerServer` entries; `cut` says the
 * upstream had more.
 */
export async function readAllPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<UpstreamPage<T>>,
): Promise<{ items: T[]; cut: boolean }> {
  const { maxListPages, maxEntriesPerServer } = UPSTREAM_LIST_RELAY_LIMITS;
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await fetchPage(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined && pages < maxListPages && items.length < maxEntriesPerServer);
  const cut = cursor !== undefined || items.length > maxEntriesPerServer;
  return { items: items.slice(0, maxEntriesPerServer), cut };
}
