/*
 * Attribute and span names of the gateway's traces (docs/observability.md).
 * The rpc.* names are OpenTelemetry's semantic conventions for JSON-RPC; the
 * mcp.* names are the gateway's own. Plain strings, so that code which only
 * passes attributes never loads the OpenTelemetry SDK.
 */

export const ATTR_RPC_SYSTEM = 'rpc.system';
export const ATTR_RPC_METHOD = 'rpc.method';
export const ATTR_RPC_JSONRPC_REQUEST_ID = 'rpc.jsonrpc.request_id';
export const ATTR_RPC_JSONRPC_ERROR_CODE = 'rpc.jsonrpc.error_code';
export const ATTR_RPC_JSONRPC_ERROR_MESSAGE = 'rpc.jsonrpc.error_message';

export const ATTR_MCP_METHOD = 'mcp.method';
export const ATTR_MCP_TOOL = 'mcp.tool';
export const ATTR_MCP_RESOURCE = 'mcp.resource';
export const ATTR_MCP_PROMPT = 'mcp.prompt';
/** The task a call created, or the one a tasks/* request addresses. */
export const ATTR_MCP_TASK = 'mcp.task.id';
export const ATTR_MCP_CLIENT_ID = 'mcp.client_id';
export const ATTR_MCP_SESSION_ID = 'mcp.session_id';
export const ATTR_MCP_PROTOCOL_VERSION = 'mcp.protocol_version';
/** success, or the error's category (src/observability/outcome.ts). */
export const ATTR_MCP_OUTCOME = 'mcp.outcome';
/** The upstream server id of an upstream call; a span that has it is a CLIENT span. */
export const ATTR_MCP_UPSTREAM = 'mcp.upstream.server_id';
export const ATTR_MCP_LEDGER_DRIVER = 'mcp.ledger.driver';

export const SPAN_GOVERNANCE = 'governance';
export const SPAN_HANDLER = 'handler';
export const SPAN_LEDGER_WRITE = 'ledger.write';
/** Upstream calls are named `upstream <method>`, e.g. `upstream tools/call`. */
export const UPSTREAM_SPAN_PREFIX = 'upstream ';

/** The attribute naming what a governed call addresses, by its kind. */
export const TARGET_ATTRIBUTE = {
  tool: ATTR_MCP_TOOL,
  resource: ATTR_MCP_RESOURCE,
  prompt: ATTR_MCP_PROMPT,
} as const;
