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

/** The attribute naming a request's target, by the family of its method. */
const TARGET_ATTRIBUTE: Readonly<Record<string, string>> = {
  tools: 'mcp.tool.name',
  resources: 'mcp.resource.uri',
  prompts: 'mcp.prompt.name',
  tasks: 'mcp.task.id',
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
    'rpc.system': 'jsonrpc',
    'rpc.method': method,
    'rpc.jsonrpc.request_id': loggedId(request.id),
    'rpc.jsonrpc.error_code': error?.code,
    'mcp.method': method,
    'mcp.client_id': session.clientId,
    'mcp.session_id': session.id,
    'mcp.protocol_version': session.protocolVersion,
    'mcp.outcome':
      response === undefined ? 'cancelled' : error ? outcomeOfCode(error.code) : 'success',
    'mcp.task.id': context?.call.taskId,
  };
  const params = request.params;
  const target = context?.call.target ?? params?.name ?? params?.uri ?? params?.taskId;
  const key = TARGET_ATTRIBUTE[method.split('/', 1)[0]];
  if (key !== undefined && typeof target === 'string') {
    attributes[key] = clipText(target, LOGGED_NAME_MAX_CHARS);
  }
  return attributes;
}
