import { JsonRpcRequest } from '../../json-rpc/json-rpc.types';
import { McpRequestContext } from '../../json-rpc/mcp-request-context';
import { clipText, LOGGED_NAME_MAX_CHARS } from '../../logging/clipped-text';
import { McpSession } from '../../session/mcp-session';
import { SpanAttributes } from './request-tracer';
import {
  ATTR_MCP_PROMPT,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_RESOURCE,
  ATTR_MCP_TASK,
  ATTR_MCP_TOOL,
} from './span-attributes';

/** The attribute naming a request's target, by the family of its method. */
const TARGET_BY_FAMILY: Readonly<Record<string, string>> = {
  tools: ATTR_MCP_TOOL,
  resources: ATTR_MCP_RESOURCE,
  prompts: ATTR_MCP_PROMPT,
  tasks: ATTR_MCP_TASK,
};

/**
 * What the span of one ended request says about it beyond what its start
 * (method) and its end (identity, outcome, error code) set: the revision
 * spoken, the task and the target, by the OpenTelemetry RPC conventions
 * where they have a name and the gateway's own under `mcp.` otherwise.
 */
export function requestSpanAttributes(
  request: JsonRpcRequest,
  session: McpSession,
  context: McpRequestContext | undefined,
): SpanAttributes {
  const attributes: SpanAttributes = {
    [ATTR_MCP_PROTOCOL_VERSION]: session.protocolVersion,
    [ATTR_MCP_TASK]: context?.call.taskId,
  };
  const params = request.params;
  const target = context?.call.target ?? params?.name ?? params?.uri ?? params?.taskId;
  const key = TARGET_BY_FAMILY[request.method.split('/', 1)[0]];
  if (key !== undefined && typeof target === 'string') {
    attributes[key] = clipText(target, LOGGED_NAME_MAX_CHARS);
  }
  return attributes;
}
