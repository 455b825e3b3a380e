export const MCP_TOOL_CALLS_TOTAL = 'mcp_tool_calls_total';
export const MCP_LEDGER_WRITE_DURATION_SECONDS = 'mcp_ledger_write_duration_seconds';
export const MCP_LEDGER_WRITE_FAILURES_TOTAL = 'mcp_ledger_write_failures_total';
export const MCP_LEDGER_BACKLOG_ROWS = 'mcp_ledger_backlog_rows';
export const MCP_LEDGER_UP = 'mcp_ledger_up';
