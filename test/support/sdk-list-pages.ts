import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Prompt, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';

/** Pages a list walk may take before a test gives up: a gateway that pages forever is a bug. */
const MAX_PAGES = 1_000;

async function allPages<T>(
  list: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await list(cursor);
    items.push(...answer.items);
    cursor = answer.nextCursor;
    if (cursor === undefined) return items;
  }
  throw new Error(`list still paging after ${MAX_PAGES} pages`);
}

const params = (cursor: string | undefined) => (cursor === undefined ? undefined : { cursor });

/** Every page of tools/list (local tools may fill several before the upstream ones). */
export function allTools(client: Client): Promise<Tool[]> {
  return allPages(async (cursor) => {
    const page = await client.listTools(params(cursor));
    return { items: page.tools, nextCursor: page.nextCursor };
  });
}

export async function allToolNames(client: Client): Promise<string[]> {
  return (await allTools(client)).map((tool) => tool.name);
}

/** Every page of prompts/list. */
export function allPrompts(client: Client): Promise<Prompt[]> {
  return allPages(async (cursor) => {
    const page = await client.listPrompts(params(cursor));
    return { items: page.prompts, nextCursor: page.nextCursor };
  });
}

/** Every page of resources/list. */
export function allResources(client: Client): Promise<Resource[]> {
  return allPages(async (cursor) => {
    const page = await client.listResources(params(cursor));
    return { items: page.resources, nextCursor: page.nextCursor };
  });
}
