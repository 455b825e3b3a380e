import { setTimeout as delay } from 'node:timers/promises';
import {
  MEDIA_CONTENT,
  ToolsFixtureCapability,
} from '../../test/fixtures/tools-fixture.capability';
import { RequestAbort } from '../common/request-abort';
import { DeepPartial } from '../config/config.loader';
import { GatewayConfig } from '../config/gateway-config';
import { specConfig } from '../config/testing/spec-config';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { RequestCancelledError } from '../errors/request-cancelled.error';
import { DispatchedRequestContext } from '../json-rpc/dispatched-request.context';
import { JsonRpcMessage, JsonRpcNotification } from '../json-rpc/json-rpc.types';
import { SpanAttributes } from '../observability/tracing/request-tracer';
import { UntracedRequestTracer } from '../observability/tracing/untraced-request.tracer';
import { McpSession } from '../session/mcp-session';
import { HandlerContext } from './handler-context';
import { HandlerOptions } from './handler-options';
import { RegisteredTool } from './registered-tool';
import { TaskStarted } from './task-started.signal';
import { fixtureToolRegistry } from './testing/fixture-tools';
import { validateNoArguments } from './tool-arguments.validator';
import { ToolExecutor } from './tool.executor';
import { ToolRegistry } from './tool.registry';

const INCIDENT = /^Tool (\S+) failed \(incident ([0-9a-f-]{36})\)/;

/** Names the spans it was asked to run, with their attributes. */
class RecordingTracer extends UntracedRequestTracer {
  readonly spans: Array<[string, SpanAttributes]> = [];

  override inSpan<R>(name: string, attributes: SpanAttributes, run: () => R): R {
    this.spans.push([name, attributes]);
    return super.inSpan(name, attributes, run);
  }
}

/** A tool of this spec, running `execute`. */
function specTool(
  execute: (args: unknown, ctx: HandlerContext) => unknown,
  options: Partial<HandlerOptions> = {},
): RegisteredTool {
  return {
    name: 'spec_tool',
    options: { name: 'spec_tool', description: 'a tool of the executor spec', ...options },
    origin: 'ExecutorSpec.spec_tool',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    validate: (args) => validateNoArguments('spec_tool', args),
    execute,
  };
}

/** A handler that works until its signal fires, then fails with its own error. */
const untilAborted = (_args: unknown, ctx: HandlerContext) =>
  new Promise((_resolve, reject) => {
    ctx.signal.addEventListener('abort', () => reject(new Error('stopped while working')));
  });

describe('ToolExecutor', () => {
  let registry: ToolRegistry;
  let tracer: RecordingTracer;
  let sent: JsonRpcMessage[];

  beforeAll(async () => {
    registry = await fixtureToolRegistry(ToolsFixtureCapability);
  });

  beforeEach(() => {
    tracer = new RecordingTracer();
    sent = [];
  });

  afterEach(() => jest.useRealTimers());

  const executor = (config: DeepPartial<GatewayConfig> = {}) =>
    new ToolExecutor(specConfig(config), tracer);

  /** One tools/call in flight; its stream records what the call sends. */
  function callContext(meta: Record<string, unknown> = {}) {
    const sink = {
      open: true,
      send: (m: JsonRpcMessage | JsonRpcMessage[]) => sent.push(m as JsonRpcMessage),
    };
    return new DispatchedRequestContext(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: meta } },
      new McpSession('stdio', 'client-a'),
      new RequestAbort(),
      undefined,
      sink,
    );
  }

  const tool = (name: string) => registry.get(name)!;

  async function failure(run: Promise<unknown>): Promise<GatewayError> {
    const error = await run.then(
      () => undefined,
      (err: unknown) => err,
    );
    if (error instanceof GatewayError) return error;
    throw new Error(`expected a gateway error, got ${String(error)}`);
  }

  describe('results', () => {
    it('maps a plain value to structuredContent plus its JSON text when the tool has an outputSchema', async () => {
      const rpc = callContext();
      const args = await tool('fx_add').validate({ a: 2, b: 3 });
      expect(await executor().execute(tool('fx_add'), args, rpc)).toEqual({
        content: [{ type: 'text', text: '{"sum":5}' }],
        structuredContent: { sum: 5 },
      });
      expect(rpc.call.executed).toBe(true);
      expect(tracer.spans).toEqual([['handler', { 'mcp.tool': 'fx_add' }]]);
    });

    it('passes content blocks and a tool-level error result through as they are', async () => {
      expect(await executor().execute(tool('fx_media'), {}, callContext())).toEqual({
        content: MEDIA_CONTENT,
      });
      expect(await executor().execute(tool('fx_is_error'), {}, callContext())).toEqual({
        content: [{ type: 'text', text: 'bad input' }],
        isError: true,
      });
    });

    it('runs the handler on the arguments as given: validating them is the caller’s (tools/call) job', async () => {
      // Unvalidated arguments reach the handler; its output breaks its own schema, a server fault.
      const error = await failure(
        executor().execute(tool('fx_add'), { a: 'two', b: 3 }, callContext()),
      );
      expect(error.code).toBe(ErrorCode.ExecutionError);
      expect(error.message).toBe(
        'Tool fx_add returned output that does not match its outputSchema',
      );
      expect(error.data).toEqual({ errors: ['/sum must be number'] });
    });

    it('refuses malformed content blocks as an execution error', async () => {
      const malformed = specTool(() => ({ content: [{ type: 'text' }] }));
      const error = await failure(executor().execute(malformed, {}, callContext()));
      expect([error.code, error.message]).toEqual([
        ErrorCode.ExecutionError,
        'Tool spec_tool returned malformed content blocks',
      ]);
    });
  });

  describe('handler errors', () => {
    it.each([
      [
        'at once',
        () => {
          throw new Error('db password=hunter2');
        },
      ],
      ['later', () => Promise.reject(new Error('db password=hunter2'))],
    ])(
      'reports a plain error thrown %s by an incident id only, and still counts the call as run',
      async (_when, execute) => {
        const rpc = callContext();
        const error = await failure(executor().execute(specTool(execute), {}, rpc));
        const [, name, incident] = INCIDENT.exec(error.message) ?? [];
        expect([error.code, name]).toEqual([ErrorCode.ExecutionError, 'spec_tool']);
        expect(error.message).not.toContain('hunter2');
        expect(error.data).toEqual({ tool: 'spec_tool', incident_id: incident });
        // A failing handler is charged, or failing would dodge budgets.
        expect(rpc.call.executed).toBe(true);
      },
    );

    it('adds the error message in dev mode', async () => {
      const error = await failure(
        executor({ dev_mode: true }).execute(tool('fx_throw'), {}, callContext()),
      );
      expect(error.message).toMatch(INCIDENT);
      expect(error.message).toMatch(/: db password=hunter2$/);
    });

    it('passes a ToolError (and any gateway error) on as the handler made it', async () => {
      const args = await tool('fx_throw').validate({ toolError: true });
      const error = await failure(executor().execute(tool('fx_throw'), args, callContext()));
      expect([error.code, error.message, error.data]).toEqual([
        ErrorCode.ExecutionError,
        'visible message',
        { hint: 'fixture' },
      ]);
    });

    it('passes TaskStarted on, the call having become a task', async () => {
      const started = new TaskStarted({ task: { taskId: 't1' } });
      const run = executor().execute(
        specTool(() => Promise.reject(started)),
        {},
        callContext(),
      );
      await expect(run).rejects.toBe(started);
    });
  });

  describe('timeout and cancellation', () => {
    it('aborts a handler past its timeoutSeconds with -32004, whatever it throws while stopping', async () => {
      jest.useFakeTimers();
      const rpc = callContext();
      const run = failure(
        executor().execute(specTool(untilAborted, { timeoutSeconds: 2 }), {}, rpc),
      );
      await jest.advanceTimersByTimeAsync(2_000);
      const error = await run;
      expect([error.code, error.message, error.data]).toEqual([
        ErrorCode.Timeout,
        'Tool spec_tool timed out after 2 s',
        { tool: 'spec_tool', timeout_seconds: 2 },
      ]);
      expect(error.retryable).toBe(true);
      // The handler's signal is the request's: it fired with the same reason.
      expect(rpc.signal.reason).toBe(error);
    });

    it('applies tools.default_timeout_seconds to a tool without its own', async () => {
      jest.useFakeTimers();
      const rpc = callContext();
      const run = failure(
        executor({ tools: { default_timeout_seconds: 5 } }).execute(
          specTool(untilAborted),
          {},
          rpc,
        ),
      );
      await jest.advanceTimersByTimeAsync(4_999);
      expect(rpc.abort.aborted).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect((await run).message).toBe('Tool spec_tool timed out after 5 s');
    });

    it('answers a cancelled call with the cancellation at once, even if the handler ignores it', async () => {
      const rpc = callContext();
      const never = specTool(() => new Promise(() => undefined));
      const run = executor().execute(never, {}, rpc);
      const reason = new RequestCancelledError('client gave up');
      rpc.abort.abort(reason);
      await expect(run).rejects.toBe(reason);
    });

    // BudgetGuard reads timeoutSeconds 0 as "use the default" for the claim's lifetime; the executor sets a 0 ms deadline.
    it.todo(
      'treats a declared timeoutSeconds of 0 as tools.default_timeout_seconds, as the budget guard does, instead of timing the call out at once',
    );

    it('clears its deadline once the handler answers', async () => {
      jest.useFakeTimers();
      const quick = specTool(() => Promise.resolve('done'), { timeoutSeconds: 1 });
      const rpc = callContext();
      expect(await executor().execute(quick, {}, rpc)).toEqual({
        content: [{ type: 'text', text: 'done' }],
      });
      expect(jest.getTimerCount()).toBe(0);
      expect(rpc.abort.aborted).toBe(false);
    });
  });

  describe('progress and cost', () => {
    it("sends the handler's progress on the request's stream, with its progress token", async () => {
      const progress = specTool(async (_args, ctx) => {
        ctx.progress(1, 2, 'half');
        await delay(1);
        ctx.progress(1, 2, 'not increasing: dropped');
        ctx.progress(2, 2);
        return 'done';
      });
      await executor().execute(progress, {}, callContext({ progressToken: 'tok' }));
      expect(sent).toEqual([
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok', progress: 1, total: 2, message: 'half' },
        },
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok', progress: 2, total: 2 },
        },
      ]);
    });

    it('keeps a long call alive with heartbeats every tools.progress_interval_seconds, until it answers', async () => {
      jest.useFakeTimers();
      let finish: (value: string) => void = () => undefined;
      const slow = specTool(() => new Promise<string>((resolve) => (finish = resolve)));
      const run = executor({ tools: { progress_interval_seconds: 10 } }).execute(
        slow,
        {},
        callContext({ progressToken: 7 }),
      );
      await jest.advanceTimersByTimeAsync(25_000);
      expect(sent.map((m) => (m as JsonRpcNotification).params?.message)).toEqual([
        'still running after 10 s',
        'still running after 20 s',
      ]);
      finish('done');
      await run;
      await jest.advanceTimersByTimeAsync(30_000);
      expect(sent).toHaveLength(2);
    });

    it('sends no progress without a progress token', async () => {
      jest.useFakeTimers();
      const run = executor({ tools: { progress_interval_seconds: 1 } }).execute(
        specTool(async (_args, ctx) => {
          ctx.progress(1, 1);
          await delay(0);
          return 'done';
        }),
        {},
        callContext(),
      );
      await jest.advanceTimersByTimeAsync(5_000);
      await run;
      expect(sent).toEqual([]);
    });

    it('records a reported cost on the call, and an invalid one as such', async () => {
      const reporting = (cost: unknown) =>
        specTool((_args, ctx) => {
          ctx.reportCost(cost as number);
          return 'done';
        });
      const valid = callContext();
      const invalid = callContext();
      await executor().execute(reporting(3), {}, valid);
      await executor().execute(reporting(-5), {}, invalid);
      expect(valid.call).toMatchObject({ executed: true, cost: 3, costReportInvalid: false });
      expect(invalid.call).toMatchObject({
        executed: true,
        cost: undefined,
        costReportInvalid: true,
      });
    });
  });
});
