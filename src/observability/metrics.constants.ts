export const MCP_REQUESTS_TOTAL = 'mcp_requests_total';
export const MCP_REQUEST_DURATION_SECONDS = 'mcp_request_duration_seconds';
export const MCP_SESSIONS_ACTIVE = 'mcp_sessions_active';
export const MCP_LIMIT_REFUSALS_TOTAL = 'mcp_limit_refusals_total';
