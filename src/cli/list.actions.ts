import { META_ESTIMATED_COST, META_RATE_LIMITS } from '../tools/tools.constants';
import { loadConfigOrExit } from './cli-config';
import { formatTable, printLine } from './cli-output';
import { listThroughGateway } from './registry-listing';

interface ListedTool {
  name: string;
  description?: string;
  _meta?: Record<string, unknown>;
}

interface ListedResource {
  uri: string;
  name?: string;
  description?: string;
  size?: number;
}

/** `mcp-server tools list`: the tools a local client sees, as a table. */
export async function listTools(configPath?: string): Promise<void> {
  const outcome = await listThroughGateway<ListedTool>(
    loadConfigOrExit(configPath),
    'tools/list',
    'tools',
  );
  if (outcome.kind === 'unsupported')
    return printLine('No tools: this gateway build serves no tools/list yet.');
  printLine(
    formatTable(
      ['NAME', 'DESCRIPTION', 'COST', 'LIMITS'],
      outcome.items.map((tool) => [
        tool.name,
        tool.description ?? '',
        costCell(tool._meta),
        limitsCell(tool._meta),
      ]),
    ),
  );
  printLine(`${outcome.items.length} tool(s)`);
}

/** The declared estimate in budget units, `-` for a tool that declares none. */
function costCell(meta: Record<string, unknown> = {}): string {
  const cost = meta[META_ESTIMATED_COST];
  return typeof cost === 'number' ? String(cost) : '-';
}

/** The call limits the listing client has on the tool (`60/min 1000/day`). */
function limitsCell(meta: Record<string, unknown> = {}): string {
  const limits = (meta[META_RATE_LIMITS] ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof limits.maxCallsPerMinute === 'number') parts.push(`${limits.maxCallsPerMinute}/min`);
  if (typeof limits.maxCallsPerDay === 'number') parts.push(`${limits.maxCallsPerDay}/day`);
  return parts.length === 0 ? '-' : parts.join(' ');
}

/** `mcp-server resources list`: the resources a local client sees, as a table. */
export async function listResources(configPath?: string): Promise<void> {
  const outcome = await listThroughGateway<ListedResource>(
    loadConfigOrExit(configPath),
    'resources/list',
    'resources',
  );
  if (outcome.kind === 'unsupported') {
    return printLine('No resources: this gateway build serves no resources/list yet.');
  }
  printLine(
    formatTable(
      ['URI', 'NAME', 'DESCRIPTION', 'SIZE'],
      outcome.items.map((r) => [r.uri, r.name ?? '', r.description ?? '', String(r.size ?? '-')]),
    ),
  );
  printLine(`${outcome.items.length} resource(s)`);
}
