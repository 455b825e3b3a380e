/**
 * MCP methods run through Nest's own pipeline (guards -> interceptors ->
 * handler, exception filters around) whichever transport delivered them.
 */
import {
  BOOT_TIMEOUT_MS,
  expectRpcError,
  expectRpcResult,
  Json,
  openAdapter,
  RpcAdapter,
  TRANSPORTS,
} from '../support/rpc-adapter';
import { killAllGateways } from '../support/tracked-gateways';

interface Counters {
  guard: number;
  interceptor: number;
  filter: number;
  handler: number;
  contextTypes: string[];
}

const SESSION_TRANSPORT = { http: 'streamable-http', stdio: 'stdio' } as const;

afterAll(killAllGateways);

describe.each(TRANSPORTS)('Nest pipeline over %s', (transport) => {
  let rpc: RpcAdapter;
  let nextId = 0;

  beforeAll(async () => {
    rpc = await openAdapter(transport);
    await rpc.initialize();
  }, BOOT_TIMEOUT_MS);

  afterAll(async () => {
    await rpc?.close();
  });

  const call = (method: string, params?: Json) => {
    const id = `p-${++nextId}`;
    return rpc
      .send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) })
      .then((reply) => ({ id, reply }));
  };

  /** probe/counters is itself guarded and intercepted; its result is the state before its own handler ran. */
  async function counters(): Promise<Counters> {
    const { id, reply } = await call('probe/counters');
    const result = expectRpcResult(reply, id);
    expect(result.intercepted).toBe(true);
    return result as unknown as Counters;
  }

  it('runs guard -> interceptor -> handler: the result is intercepted and names the transport', async () => {
    const before = await counters();
    const { id, reply } = await call('probe/run', {});
    expect(expectRpcResult(reply, id)).toEqual({
      transport: SESSION_TRANSPORT[transport],
      intercepted: true,
    });
    const after = await counters();
    // Guard and interceptor: +1 for probe/run, +1 for the probe/counters call that reported `after`.
    expect(after.guard - before.guard).toBe(2);
    expect(after.interceptor - before.interceptor).toBe(2);
    // Only probe/run counts as `handler`.
    expect(after.handler - before.handler).toBe(1);
    expect(after.filter).toBe(before.filter);
  });

  it('deny:true is refused by the guard with -32003 and the handler does not run', async () => {
    const before = await counters();
    const { id, reply } = await call('probe/run', { deny: true });
    const error = expectRpcError(reply, -32003, id);
    expect(error.data).toMatchObject({ retryable: false, reason: 'forbidden' });
    const after = await counters();
    expect(after.guard - before.guard).toBe(2);
    // probe/run's interceptor and handler never ran (the 1 is probe/counters' interceptor).
    expect(after.handler).toBe(before.handler);
    expect(after.interceptor - before.interceptor).toBe(1);
    expect(after.filter).toBe(before.filter);
  });

  it("fail:true is answered by the method's own exception filter", async () => {
    const before = await counters();
    const { id, reply } = await call('probe/run', { fail: true });
    const error = expectRpcError(reply, -32005, id);
    expect(error).toEqual({
      code: -32005,
      message: 'probe filter caught: handler failed on purpose',
      // A method's own filter says what it likes; the trace id is added to every request error.
      data: { filtered: true, traceId: expect.stringMatching(/^[0-9a-f]{32}$/) },
    });
    const after = await counters();
    expect(after.filter - before.filter).toBe(1);
    expect(after.handler - before.handler).toBe(1);
  });

  it('resolves parameters declared in another order than the invocation gives them', async () => {
    const { id, reply } = await call('probe/reversed', { echo: 'back' });
    expect(expectRpcResult(reply, id)).toEqual({
      transport: SESSION_TRANSPORT[transport],
      echo: 'back',
      intercepted: true,
    });
  });

  it("runs a method's pipes on its parameters", async () => {
    const { id, reply } = await call('probe/piped', { echo: 'x' });
    expect(expectRpcResult(reply, id)).toEqual({
      params: { echo: 'x', piped: true },
      intercepted: true,
    });
  });

  it('every ExecutionContext the guard saw was of type rpc', async () => {
    const { contextTypes, guard } = await counters();
    expect(contextTypes.length).toBe(guard);
    expect(contextTypes.length).toBeGreaterThanOrEqual(8);
    expect(new Set(contextTypes)).toEqual(new Set(['rpc']));
  });
});
