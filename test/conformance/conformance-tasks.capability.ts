import { Injectable } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { ErrorCode } from '../../src/errors/error-code';
import { GatewayError } from '../../src/errors/gateway.error';
import { text, toolResult, ToolResult } from '../../src/tools/content';
import { HandlerContext } from '../../src/tools/handler-context';
import { Capability, Handler } from '../../src/tools/handler.decorator';
import { stringFieldSchema } from './conformance-fixture.constants';
import { elicited } from './conformance-tools.capability';

const SLOW_COMPUTE_INPUT = {
  type: 'object',
  properties: {
    seconds: { type: 'number', minimum: 0, maximum: 600 },
    label: { type: 'string' },
  },
};

/** What the suite answers these questions with: `{ confirm: true }`. */
const CONFIRM_SCHEMA = {
  type: 'object',
  properties: { confirm: { type: 'boolean' } },
  required: ['confirm'],
};

const NAME_INPUT = { type: 'object', properties: { name: { type: 'string' } } };
const NO_INPUT = { type: 'object', properties: {} };
const FILENAME_INPUT = { type: 'object', properties: { filename: { type: 'string' } } };

/**
 * The tools the tasks-* scenarios of the conformance suite (0.2.0-alpha,
 * SEP-2663) call: one synchronous tool, tools that run as tasks (slow,
 * failing with a tool error, failing with a protocol error, asking one and
 * two questions), and one that asks through an input-required round before
 * it becomes a task.
 */
@Injectable()
@Capability()
export class ConformanceTasksCapability {
  @Handler({ name: 'greet', description: 'Says hello (never a task).', inputSchema: NAME_INPUT })
  greet(args: { name?: string }): ToolResult {
    return toolResult([text(`Hello, ${args.name ?? 'World'}!`)]);
  }

  @Handler({
    name: 'slow_compute',
    description: 'Sleeps `seconds` (0 for at once), then answers; stops on cancellation.',
    inputSchema: SLOW_COMPUTE_INPUT,
    task: 'optional',
    timeoutSeconds: 600,
  })
  async slowCompute(
    args: { seconds?: number; label?: string },
    ctx: HandlerContext,
  ): Promise<ToolResult> {
    const seconds = args.seconds ?? 1;
    ctx.progress(0, seconds, 'computing');
    await delay(seconds * 1000, undefined, { signal: ctx.signal });
    return toolResult([text(`Computed ${args.label ?? 'result'} in ${seconds} s`)]);
  }

  @Handler({
    name: 'failing_job',
    description: 'Runs only as a task; ends with a tool error after a second.',
    inputSchema: NO_INPUT,
    task: 'required',
  })
  async failingJob(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    await delay(1000, undefined, { signal: ctx.signal });
    return toolResult([text('The job failed: nothing to process')], { isError: true });
  }

  @Handler({
    name: 'protocol_error_job',
    description: 'Runs as a task; fails with a JSON-RPC error.',
    inputSchema: NO_INPUT,
    task: 'optional',
  })
  async protocolErrorJob(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    await delay(200, undefined, { signal: ctx.signal });
    throw new GatewayError(ErrorCode.InternalError, 'The job hit an internal error');
  }

  @Handler({
    name: 'confirm_delete',
    description: 'Runs as a task; asks the user to confirm, then answers.',
    inputSchema: FILENAME_INPUT,
    task: 'optional',
  })
  async confirmDelete(args: { filename?: string }, ctx: HandlerContext): Promise<ToolResult> {
    const answer = await ctx.elicit({
      mode: 'form',
      message: `Delete ${args.filename ?? 'the file'}?`,
      requestedSchema: CONFIRM_SCHEMA,
    });
    const confirmed = elicited(answer).confirm === true;
    return toolResult([
      text(confirmed ? `Deleted ${args.filename ?? 'the file'}` : 'Kept the file'),
    ]);
  }

  @Handler({
    name: 'multi_input',
    description: 'Runs as a task; asks two questions at once, then answers.',
    inputSchema: NO_INPUT,
    task: 'optional',
  })
  async multiInput(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    const [first, second] = await Promise.all([
      ctx.elicit({
        mode: 'form',
        message: 'First name?',
        requestedSchema: stringFieldSchema('name'),
      }),
      ctx.elicit({ mode: 'form', message: 'Confirm?', requestedSchema: CONFIRM_SCHEMA }),
    ]);
    return toolResult([
      text(`Got ${String(elicited(first).name)} and ${String(elicited(second).confirm)}`),
    ]);
  }

  @Handler({
    name: 'test_tool_with_task',
    description: 'Asks the user name through an input-required round, then runs as a task.',
    inputSchema: NO_INPUT,
    task: 'required',
    startsTaskItself: true,
  })
  async toolWithTask(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    const answer = await ctx.elicit(
      { message: 'What is your name?', requestedSchema: stringFieldSchema('name') },
      { inputKey: 'user_name' },
    );
    await ctx.runAsTask?.();
    await delay(300, undefined, { signal: ctx.signal });
    return toolResult([text(`Hello, ${String(elicited(answer).name)}!`)]);
  }
}
