import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const DRIVER = join(__dirname, 'ext-tasks-driver.mjs');

export interface DriverOptions {
  baseUrl: string;
  clientId: string;
  tool: string;
  arguments?: Record<string, unknown>;
  /** settle: drive the call to its end; cancel-when-working: cancel once the task is working. */
  mode: 'settle' | 'cancel-when-working';
  /** Content to accept elicitations with; absent: they are declined. */
  answer?: Record<string, unknown>;
}

export interface DriverReport {
  kind: 'immediate' | 'task';
  taskId?: string;
  statuses: string[];
  inputs: string[];
  final: { status: string; result?: Record<string, unknown>; error?: { message: string } };
}

/**
 * One tool call through the official MCP Tasks client (@modelcontextprotocol/ext-tasks over the
 * SDK v2 Client), run by test/support/ext-tasks-driver.mjs in a child process (the package is
 * ESM only); resolves with what the client saw.
 */
export async function callThroughTasksClient(options: DriverOptions): Promise<DriverReport> {
  const { stdout } = await run(process.execPath, [DRIVER, JSON.stringify(options)], {
    timeout: 90_000,
  });
  const lines = stdout
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const opening = lines[0] as { kind: DriverReport['kind']; taskId?: string };
  const final = lines.find((line) => 'final' in line)?.final as DriverReport['final'];
  return {
    kind: opening.kind,
    taskId: opening.taskId,
    statuses: lines.flatMap((line) => (typeof line.status === 'string' ? [line.status] : [])),
    inputs: lines.flatMap((line) => (typeof line.input === 'string' ? [line.input] : [])),
    final,
  };
}
