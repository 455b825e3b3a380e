import { JsonRpcRequest, JsonRpcResponse } from '../../json-rpc/json-rpc.types';
import { McpRequestContext } from '../../json-rpc/mcp-request-context';
import {
  clipText,
  LOGGED_ID_MAX_CHARS,
  LOGGED_NAME_MAX_CHARS,
  loggedId,
} from '../../logging/clipped-text';
import { McpSession } from '../../session/mcp-session';
import { outcomeOfCode } from '../outcome';
import { SpanAttributes } from './request-tracer';
import {
  ATTR_MCP_CLIENT_ID,
  ATTR_MCP_METHOD,
  ATTR_MCP_OUTCOME,
  ATTR_MCP_PROMPT,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_RESOURCE,
  ATTR_MCP_SESSION_ID,
  ATTR_MCP_TASK,
  ATTR_MCP_TOOL,
  ATTR_RPC_JSONRPC_ERROR_CODE,
  ATTR_RPC_JSONRPC_REQUEST_ID,
  ATTR_RPC_METHOD,
  ATTR_RPC_SYSTEM,
} from './span-attributes';

/** The attribute naming a request's target, by the family of its method. */
const TARGET_BY_FAMILY: Readonly<Record<string, string>> = {
  tools: ATTR_MCP_TOOL,
  resources: ATTR_MCP_RESOURCE,
  prompts: ATTR_MCP_PROMPT,
  tasks: ATTR_MCP_TASK,
};

/**
 * What the span of one ended request says about it: JSON-RPC names from the
 * OpenTelemetry RPC conventions, the gateway's own under `mcp.`.
 */
export function requestSpanAttributes(
  request: JsonRpcRequest,
  session: McpSession,
  context: McpRequestContext | undefined,
  response: JsonRpcResponse | undefined,
): SpanAttributes {
  const error = response !== undefined && 'error' in response ? response.error : undefined;
  const method = clipText(request.method, LOGGED_ID_MAX_CHARS);
  const attributes: SpanAttributes = {
    [ATTR_RPC_SYSTEM]: 'jsonrpc',
    [ATTR_RPC_METHOD]: method,
    [ATTR_RPC_JSONRPC_REQUEST_ID]: loggedId(request.id),
    [ATTR_RPC_JSONRPC_ERROR_CODE]: error?.code,
    [ATTR_MCP_METHOD]: method,
    [ATTR_MCP_CLIENT_ID]: session.clientId,
    [ATTR_MCP_SESSION_ID]: session.id,
    [ATTR_MCP_PROTOCOL_VERSION]: session.protocolVersion,
    [ATTR_MCP_OUTCOME]:
      response === undefined ? 'cancelled' : error ? outcomeOfCode(error.code) : 'success',
    [ATTR_MCP_TASK]: context?.call.taskId,
  };
  const params = request.params;
  const target = context?.call.target ?? params?.name ?? params?.uri ?? params?.taskId;
  const key = TARGET_BY_FAMILY[method.split('/', 1)[0]];
  if (key !== undefined && typeof target === 'string') {
    attributes[key] = clipText(target, LOGGED_NAME_MAX_CHARS);
  }
  return attributes;
}
