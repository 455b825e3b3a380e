// Drives one tool call through the official MCP Tasks client (@modelcontextprotocol/ext-tasks
// over the SDK v2 Client), as an application would. ESM only, so the tests run it as a child
// process: `node ext-tasks-driver.mjs '<json options>'`; it prints one JSON line per task event
// and a last line {"final": ...}. Options: baseUrl, clientId, tool, arguments, mode
// ("settle" | "cancel-when-working"), answer (content for elicitations; absent: decline).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  taskViewFromExecutionEvent,
} from '@modelcontextprotocol/ext-tasks/client';

const MODERN = '2026-07-28';
const options = JSON.parse(process.argv[2]);
const clientInfo = { name: 'ext-tasks-driver', version: '1.0.0' };
const clientCapabilities = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const identity = { 'x-mcp-client-id': options.clientId };
let lastId = 0;

/**
 * The host's raw request path the Tasks client needs for V2 wire shapes: one POST per request,
 * its JSON-RPC answer handed back as the port's `{kind: 'result' | 'error'}`.
 */
async function rawDispatch(request) {
  const params = request.params ?? {};
  const name = request.method === 'tools/call' ? params.name : params.taskId;
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    'mcp-protocol-version': MODERN,
    'mcp-method': request.method,
    ...identity,
  };
  if (typeof name === 'string') headers['mcp-name'] = name;
  const response = await fetch(`${options.baseUrl}/mcp`, {
    method: 'POST',
    headers,
    // The Tasks client hands over {method, params}; the envelope is the host's.
    body: JSON.stringify({ jsonrpc: '2.0', id: ++lastId, ...request }),
  });
  const answer = await response.json();
  return 'error' in answer
    ? { kind: 'error', error: answer.error }
    : { kind: 'result', result: answer.result };
}

const client = new Client(clientInfo, {
  capabilities: clientCapabilities,
  versionNegotiation: { mode: { pin: MODERN } },
});
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${options.baseUrl}/mcp`), {
    requestInit: { headers: identity },
  }),
);
const session = createTaskSessionFromClient(client, {
  endpointId: `driver-${options.clientId}`,
  rawDispatch,
  v2RequestFraming: { protocolVersion: MODERN, clientInfo, clientCapabilities },
  onInputRequest: async (request) => {
    emit({ input: request.kind });
    if (request.kind !== 'elicitation') throw new Error(`unexpected ${request.kind}`);
    return options.answer === undefined
      ? { action: 'decline' }
      : { action: 'accept', content: options.answer };
  },
});

function emit(line) {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

try {
  const execution = await session.callTool(options.tool, options.arguments ?? {});
  emit({ kind: execution.kind, taskId: execution.handle?.taskId });
  let cancelled = false;
  const { outcome } = await execution.settle({
    onEvent: async (event) => {
      const task = taskViewFromExecutionEvent(event);
      if (task) emit({ status: task.status, statusMessage: task.statusMessage });
      if (options.mode === 'cancel-when-working' && task?.status === 'working' && !cancelled) {
        cancelled = true;
        await execution.cancel();
      }
    },
  });
  const final = { status: outcome.status };
  if (outcome.status === 'completed') final.result = outcome.result;
  if (outcome.status === 'failed') final.error = { message: outcome.error.message };
  emit({ final });
} finally {
  await session.close();
  await client.close();
}
