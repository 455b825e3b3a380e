import { setTimeout as delay } from 'node:timers/promises';

/**
 * Raw MCP 2026-07-28 requests over fetch that declare the tasks extension
 * (io.modelcontextprotocol/tasks), for suites that drive tasks over HTTP:
 * a tools/call answered with a task, tasks/get and tasks/cancel, and a
 * bounded wait for a task to reach a state.
 */

export const MODERN_REVISION = '2026-07-28';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The DetailedTask of tasks/get (ext-tasks), as far as suites read it. */
export interface TaskView {
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export interface JsonRpcReply {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** The body field Mcp-Name mirrors, per method. */
const NAMED_BY: Record<string, string> = {
  'tools/call': 'name',
  'tasks/get': 'taskId',
  'tasks/cancel': 'taskId',
};

/** One 2026-07-28 request from `clientId`, declaring tasks unless `acceptsTasks` is false. */
export async function modernRequest(
  baseUrl: string,
  clientId: string,
  method: string,
  params: Record<string, unknown>,
  acceptsTasks = true,
): Promise<JsonRpcReply> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
    'io.modelcontextprotocol/clientCapabilities': acceptsTasks
      ? { extensions: { [TASKS_EXTENSION]: {} } }
      : {},
    'io.modelcontextprotocol/clientInfo': { name: 'task-suite', version: '1.0.0' },
  };
  const named = NAMED_BY[method];
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_REVISION,
      'mcp-method': method,
      'x-mcp-client-id': clientId,
      ...(named === undefined ? {} : { 'mcp-name': String(params[named]) }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
  });
  return replyOf(await res.text(), res.status);
}

/** tools/call that must be answered with a task; the CreateTaskResult. */
export async function createTask(
  baseUrl: string,
  clientId: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<TaskView> {
  const reply = await modernRequest(baseUrl, clientId, 'tools/call', {
    name: tool,
    arguments: args,
  });
  if (reply.result?.resultType !== 'task') {
    throw new Error(`${tool} was not answered with a task: ${JSON.stringify(reply)}`);
  }
  return reply.result as unknown as TaskView;
}

export async function getTask(baseUrl: string, clientId: string, taskId: string) {
  const reply = await modernRequest(baseUrl, clientId, 'tasks/get', { taskId });
  if (reply.result === undefined) throw new Error(`tasks/get failed: ${JSON.stringify(reply)}`);
  return reply.result as unknown as TaskView;
}

/** Polls tasks/get until `reached` holds; fails naming `what` and the last state seen. */
export async function waitForTask(
  baseUrl: string,
  clientId: string,
  taskId: string,
  reached: (task: TaskView) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<TaskView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await getTask(baseUrl, clientId, taskId);
    if (reached(task)) return task;
    if (Date.now() > deadline) {
      throw new Error(`task ${taskId} never reached "${what}"; last: ${JSON.stringify(task)}`);
    }
    await delay(100);
  }
}

/** The JSON-RPC reply of a JSON or SSE answer. */
function replyOf(text: string, status: number): JsonRpcReply {
  const trimmed = text.trim();
  const json = trimmed.startsWith('{')
    ? trimmed
    : trimmed
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .find((line) => line.startsWith('{') && line.includes('"id"'));
  if (json === undefined) throw new Error(`HTTP ${status} without a JSON-RPC reply: ${text}`);
  return JSON.parse(json) as JsonRpcReply;
}
