export const MCP_TASKS_CREATED_TOTAL = 'mcp_tasks_created_total';
export const MCP_TASKS_FINISHED_TOTAL = 'mcp_tasks_finished_total';
export const MCP_TASKS_RUNNING = 'mcp_tasks_running';
export const MCP_TASK_QUEUE_WAIT_SECONDS = 'mcp_task_queue_wait_seconds';
export const MCP_TASK_RUN_SECONDS = 'mcp_task_run_seconds';
export const MCP_TASKS_QUEUED = 'mcp_tasks_queued';
