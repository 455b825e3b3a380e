import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { HandlerContext } from '../tools/handler-context';
import type { RegisteredTool } from '../tools/registered-tool';
import { upstreamUnavailable } from './upstream-call.errors';
import {
  CONNECT_TIMEOUT_MS,
  MAX_TOTAL_TIMEOUT_MS,
  TOTAL_TIMEOUT_FACTOR,
} from './upstream-connection.constants';
import type { UpstreamRecord } from './upstream-record';
import { APPROVAL_TIMEOUT_MS } from './upstream-relay.limits';
import { requireApproval } from './upstream-tool.approval';
import { approvalFor, costFor } from './upstream-tool.policy';
import { UPSTREAM_TOOL_LIMITS } from './upstream-tool.limits';
import { taskSupportOf } from './upstream-task-support';
import type { UpstreamPool } from './upstream.pool';

/** Where every upstream tool's origin starts, so the publisher can tell its own entries from local tools. */
export const UPSTREAM_ORIGIN_PREFIX = 'upstream:';

/**
 * An upstream tool as the registry holds it: tools/list, visibility, budget,
 * rate limits and the ledger then treat it as any local tool, and its handler
 * forwards the call through the pool, which applies the record's budgets.
 */
export function upstreamRegisteredTool(
  record: UpstreamRecord,
  tool: Tool,
  exposedName: string,
  pool: UpstreamPool,
): RegisteredTool {
  const serverId = record.server_id;
  const needsApproval = approvalFor(record, tool.name) === 'always';
  const taskSupport = taskSupportOf(tool);
  const cost = costFor(record, tool.name);
  return {
    name: exposedName,
    origin: `${UPSTREAM_ORIGIN_PREFIX}${serverId}/${tool.name}`,
    upstream: { server: serverId, tool: tool.name },
    inputSchema: tool.inputSchema,
    options: {
      name: exposedName,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      description: boundedDescription(tool.description ?? ''),
      estimatedCost: cost,
      // An upstream cannot report a cost: its registry cost is all a call may be charged, and reserved.
      maxCost: cost,
      timeoutSeconds: (hardLimitMs(record) + (needsApproval ? APPROVAL_TIMEOUT_MS : 0)) / 1000,
      ...(tool.annotations === undefined ? {} : { annotations: { ...tool.annotations } }),
      // The upstream's own declaration: a tool it runs only as a task is one for the gateway too.
      ...(taskSupport === undefined ? {} : { task: taskSupport }),
    },
    // The upstream validates its own arguments; the gateway's size limits ran before this.
    validate: (args) => Promise.resolve(args),
    execute: async (args, context: HandlerContext) => {
      const connection = pool.connection(serverId);
      if (!connection) throw upstreamUnavailable(serverId, new Error('not in the registry'));
      // Asked before a concurrency slot is taken: a user deciding must not hold one.
      if (needsApproval) await requireApproval(record, tool.name, exposedName, args, context);
      return connection.callTool(tool.name, args as Record<string, unknown>, {
        signal: context.signal,
        onprogress: ({ progress, total, message }) => context.progress(progress, total, message),
        caller: context,
        taskSupport,
      });
    },
  };
}

/**
 * The gateway's own deadline is only a backstop behind the connection's: a
 * wait for a call slot, a reconnect, then the call's total timeout (which
 * progress can stretch), so the upstream's timeout answers first (mcp_timeout).
 */
function hardLimitMs(record: UpstreamRecord): number {
  const timeout = record.budgets.tool_timeout_ms;
  const total = Math.min(timeout * TOTAL_TIMEOUT_FACTOR, MAX_TOTAL_TIMEOUT_MS);
  return timeout + CONNECT_TIMEOUT_MS + total;
}

function boundedDescription(description: string): string {
  const max = UPSTREAM_TOOL_LIMITS.maxDescriptionChars;
  return description.length <= max ? description : `${description.slice(0, max - 1)}…`;
}

/** Bytes of the inputSchema as tools/list would send it. */
export function inputSchemaBytes(tool: Tool): number {
  return Buffer.byteLength(JSON.stringify(tool.inputSchema));
}
