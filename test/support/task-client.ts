import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';

const MODERN = '2026-07-28';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** A DetailedTask as tasks/get answers it (ext-tasks, "Tasks"). */
export interface DetailedTask {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  result?: { content?: Array<{ type: string; text?: string }>; isError?: boolean };
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

const DETAILED_TASK = z.looseObject({
  taskId: z.string(),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
});
const EMPTY_RESULT = z.looseObject({});

/**
 * One client of the tasks extension (MCP 2026-07-28) at one gateway. The
 * SDK v2 client sends tasks/get and tasks/cancel with a result schema of
 * ours (it has no task vocabulary for 2026-07-28); the tools/call that
 * creates a task is a raw POST, because the SDK refuses an answer with
 * `resultType: "task"` (UNSUPPORTED_RESULT_TYPE).
 */
export class TaskClient {
  private constructor(
    readonly baseUrl: string,
    readonly clientId: string,
    private readonly sdk: Client,
  ) {}

  static async connect(baseUrl: string, clientId: string): Promise<TaskClient> {
    const sdk = new Client(
      { name: 'task-client', version: '1.0.0' },
      {
        // The extension in every request's _meta client capabilities (ext-tasks, "Capability Negotiation").
        capabilities: { extensions: { [TASKS_EXTENSION]: {} } },
        versionNegotiation: { mode: { pin: MODERN } },
      },
    );
    await sdk.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
        requestInit: { headers: { 'X-MCP-Client-ID': clientId } },
      }),
    );
    return new TaskClient(baseUrl, clientId, sdk);
  }

  /**
   * tools/call answered with a CreateTaskResult; `requestId` names the call
   * (its ledger row's request_id is `s:<requestId>`).
   */
  async createTask(
    requestId: string,
    name: string,
    args: Record<string, unknown>,
  ): Promise<DetailedTask> {
    const response = await fetch(`${this.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': name,
        'x-mcp-client-id': this.clientId,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: requestId,
        method: 'tools/call',
        params: {
          name,
          arguments: args,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            // Elicitation too: a task's questions reach the client as inputRequests.
            'io.modelcontextprotocol/clientCapabilities': {
              elicitation: {},
              extensions: { [TASKS_EXTENSION]: {} },
            },
            'io.modelcontextprotocol/clientInfo': { name: 'task-client', version: '1.0.0' },
          },
        },
      }),
    });
    const text = await response.text();
    const body = JSON.parse(text) as { result?: Record<string, unknown> };
    if (response.status !== 200 || body.result?.resultType !== 'task') {
      throw new Error(`tools/call did not create a task: ${response.status} ${text}`);
    }
    return body.result as unknown as DetailedTask;
  }

  get(taskId: string): Promise<DetailedTask> {
    return this.sdk.request({ method: 'tasks/get', params: { taskId } }, DETAILED_TASK);
  }

  async cancel(taskId: string): Promise<void> {
    await this.sdk.request({ method: 'tasks/cancel', params: { taskId } }, EMPTY_RESULT);
  }

  /** Answers outstanding inputRequests by key. */
  async update(taskId: string, inputResponses: Record<string, unknown>): Promise<void> {
    await this.sdk.request(
      { method: 'tasks/update', params: { taskId, inputResponses } },
      EMPTY_RESULT,
    );
  }

  /** The JSON-RPC error code tasks/get is refused with; throws when it is answered. */
  async refusedGet(taskId: string): Promise<number> {
    try {
      await this.get(taskId);
    } catch (err) {
      if (err instanceof ProtocolError) return err.code;
      throw err;
    }
    throw new Error(`tasks/get for ${taskId} was answered for client ${this.clientId}`);
  }

  /** tasks/get until `accept` takes the task, or fails after `timeoutMs`. */
  async waitFor(
    taskId: string,
    accept: (task: DetailedTask) => boolean,
    what: string,
    timeoutMs = 30_000,
  ): Promise<DetailedTask> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const task = await this.get(taskId);
      if (accept(task)) return task;
      if (Date.now() > deadline) {
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for ${what}: ${JSON.stringify(task)}`,
        );
      }
      await delay(100);
    }
  }

  async close(): Promise<void> {
    await this.sdk.close().catch(() => undefined);
  }
}

/** The text of a completed task's result. */
export function resultText(task: DetailedTask): string {
  return task.result?.content?.map((block) => block.text ?? '').join('\n') ?? '';
}
