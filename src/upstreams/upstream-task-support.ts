import type { ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';

/** How an upstream tool says it runs as a task (MCP 2025-11-25 `execution.taskSupport`); absent means never. */
export type UpstreamTaskSupport = 'optional' | 'required';

/** The tool's own declaration; 'forbidden', absent or anything else means a plain call. */
export function taskSupportOf(tool: Pick<Tool, 'execution'>): UpstreamTaskSupport | undefined {
  const declared = tool.execution?.taskSupport;
  return declared === 'optional' || declared === 'required' ? declared : undefined;
}

/**
 * Whether the gateway's tools/call must be task-augmented: the spec forbids it
 * unless the server declares `tasks.requests.tools.call`, so a tool that
 * requires a task on a server that does not declare it cannot be called at all.
 */
export function callsAsTask(
  serverId: string,
  tool: string,
  support: UpstreamTaskSupport | undefined,
  capabilities: ServerCapabilities | undefined,
): boolean {
  if (support === undefined) return false;
  if (capabilities?.tasks?.requests?.tools?.call !== undefined) return true;
  if (support === 'optional') return false;
  throw new GatewayError(
    ErrorCode.ExecutionError,
    `Upstream ${serverId} declares that ${tool} runs only as a task, but not the tasks.requests.tools.call capability a task needs`,
    { data: { code: 'mcp_upstream_error', server_id: serverId, tool } },
  );
}
