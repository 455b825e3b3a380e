import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type CallToolResult, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { releaseTaskProgress } from './sdk-task-progress.release';

/** Guards the one SDK internal the gateway relies on: if it goes, this says so. */
describe('releaseTaskProgress', () => {
  it("frees the progress handler the SDK client keeps for a task-augmented request's task", async () => {
    const server = new McpServer(
      { name: 'tasks', version: '1.0.0' },
      {
        capabilities: { tasks: { requests: { tools: { call: {} } } } },
        taskStore: new InMemoryTaskStore(),
      },
    );
    server.experimental.tasks.registerToolTask(
      'later',
      { execution: { taskSupport: 'required' } },
      {
        createTask: async (extra) => ({ task: await extra.taskStore.createTask({}) }),
        getTask: (extra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: async (extra) =>
          (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult,
      },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'gateway', version: '1.0.0' });
    await server.connect(serverSide);
    await client.connect(clientSide);
    try {
      const handlers = (client as unknown as { _progressHandlers: Map<number, unknown> })
        ._progressHandlers;
      const { task } = await client.request(
        { method: 'tools/call', params: { name: 'later', arguments: {} } },
        CreateTaskResultSchema,
        { task: {}, onprogress: () => undefined },
      );
      expect(handlers.size).toBe(1);
      releaseTaskProgress(client, task.taskId);
      expect(handlers.size).toBe(0);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
