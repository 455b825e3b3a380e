import {
  CanActivate,
  DynamicModule,
  ExecutionContext,
  Injectable,
  Module,
  UseGuards,
} from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { getToken } from '@willsoto/nestjs-prometheus';
import { IsString } from 'class-validator';
import { Counter, Gauge, Histogram } from 'prom-client';
import { FixtureMethods } from '../../test/fixtures/fixture-methods';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { DeepPartial } from '../config/config.loader';
import { GatewayConfig } from '../config/gateway-config';
import { specConfig } from '../config/testing/spec-config';
import { ErrorCode } from '../errors/error-code';
import { GovernanceDeniedError } from '../governance/governance-denied.error';
import { rpcValidationPipe } from '../lifecycle/rpc-validation.pipe';
import { McpMetrics } from '../observability/mcp.metrics';
import {
  MCP_LIMIT_REFUSALS_TOTAL,
  MCP_REQUEST_DURATION_SECONDS,
  MCP_REQUESTS_TOTAL,
  MCP_SESSIONS_ACTIVE,
} from '../observability/metrics.constants';
import { RequestTracer } from '../observability/tracing/request-tracer';
import { UntracedRequestTracer } from '../observability/tracing/untraced-request.tracer';
import { McpSession } from '../session/mcp-session';
import { AuditTrail } from './audit-trail';
import { CompletedCall } from './call-observers';
import { DispatchResult, JsonRpcDispatcher } from './json-rpc.dispatcher';
import { JsonRpcModule } from './json-rpc.module';
import { JsonRpcParams, JsonRpcResponse } from './json-rpc.types';
import { McpMethod } from './mcp-method.decorator';
import { McpContext, McpParams } from './mcp-params.decorator';
import { McpRequestContext } from './mcp-request-context';

const TRACE_ID = expect.stringMatching(/^[0-9a-f]{32}$/) as unknown;
const INCIDENT = /^Internal error \(incident [0-9a-f-]{36}\)$/;

/** How often each spec method's body ran. */
const runs = { guarded: 0, read: 0, args: 0, named: 0, notified: 0 };

/** A governance step in small: `deny: true` in the params is a rate-limit refusal. */
@Injectable()
class DenyingGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.switchToRpc().getData<JsonRpcParams>().deny !== true) return true;
    throw new GovernanceDeniedError('rate_limited', 'Rate limit exceeded', {
      retryable: true,
      retryAfter: 30,
      remaining: { calls_minute: 0 },
      data: { window: 'minute' },
    });
  }
}

@Module({})
class SpecGlobals {}

class NameDto {
  @IsString()
  name!: string;
}

@Injectable()
class SpecMethods {
  @McpMethod('spec/guarded', { audited: true })
  @UseGuards(DenyingGuard)
  guarded() {
    return { ran: ++runs.guarded };
  }

  @McpMethod('spec/read', { audited: true, resourceUris: { paths: ['uri'] } })
  read() {
    return { ran: ++runs.read };
  }

  @McpMethod('spec/args', { audited: true, limitedParams: ['arguments'] })
  args() {
    return { ran: ++runs.args };
  }

  @McpMethod('spec/named')
  named(@McpParams(rpcValidationPipe) params: NameDto) {
    return { ran: ++runs.named, name: params.name };
  }

  @McpMethod('notifications/spec')
  notified(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    runs.notified++;
    if (params.fail === true) throw new Error('notification handler failed');
    return { requestId: ctx.requestId };
  }

  /** A method 2026-07-28 removed (REMOVED_IN_2026), as the lifecycle declares it. */
  @McpMethod('ping', { beforeInitialize: true })
  ping() {
    return {};
  }
}

const request = (id: unknown, method: string, params?: JsonRpcParams) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});
const notification = (method: string, params?: JsonRpcParams) => ({
  jsonrpc: '2.0',
  method,
  ...(params === undefined ? {} : { params }),
});

describe('JsonRpcDispatcher', () => {
  let app: TestingModule;
  let dispatcher: JsonRpcDispatcher;
  let requests: Counter<'method' | 'outcome'>;
  let audited: CompletedCall[];
  let session: McpSession;

  async function boot(config: DeepPartial<GatewayConfig> = {}): Promise<void> {
    requests = new Counter({
      name: 'spec_requests',
      help: 'h',
      labelNames: ['method', 'outcome'],
      registers: [],
    });
    const metric = (name: string, value: unknown) => ({ provide: getToken(name), useValue: value });
    // What the gateway's global modules give JsonRpcModule: config, metrics, the tracer.
    const globals: DynamicModule = {
      module: SpecGlobals,
      global: true,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: specConfig(config) },
        { provide: RequestTracer, useClass: UntracedRequestTracer },
        metric(MCP_REQUESTS_TOTAL, requests),
        metric(
          MCP_REQUEST_DURATION_SECONDS,
          new Histogram({ name: 'd', help: 'h', labelNames: ['method'], registers: [] }),
        ),
        metric(
          MCP_SESSIONS_ACTIVE,
          new Gauge({ name: 's', help: 'h', labelNames: ['transport'], registers: [] }),
        ),
        metric(
          MCP_LIMIT_REFUSALS_TOTAL,
          new Counter({ name: 'l', help: 'h', labelNames: ['limit'], registers: [] }),
        ),
        McpMetrics,
      ],
      exports: [GATEWAY_CONFIG, RequestTracer, McpMetrics],
    };
    app = await Test.createTestingModule({
      imports: [globals, JsonRpcModule],
      providers: [FixtureMethods, SpecMethods, DenyingGuard],
    }).compile();
    app.useLogger(false);
    await app.init();
    dispatcher = app.get(JsonRpcDispatcher);
    audited = [];
    app.get(AuditTrail).register({ callCompleted: (call) => void audited.push(call) });
  }

  beforeEach(async () => {
    await boot();
    session = new McpSession('stdio', 'client-a');
    session.initialized = true;
    session.protocolVersion = '2025-03-26';
  });

  afterEach(() => app?.close());

  const send = (frame: unknown): Promise<DispatchResult> =>
    dispatcher.dispatchFrame(typeof frame === 'string' ? frame : JSON.stringify(frame), {
      session,
    });

  /** The error of a single answer, checked to be one for `id`. */
  async function errorOf(frame: unknown, id: unknown) {
    const answer = (await send(frame)) as JsonRpcResponse;
    expect(answer).toMatchObject({ jsonrpc: '2.0', id });
    if (!('error' in answer)) throw new Error(`expected an error, got ${JSON.stringify(answer)}`);
    return answer.error as { code: number; message: string; data: Record<string, unknown> };
  }

  const counted = async (method: string, outcome: string) =>
    (await requests.get()).values.find(
      (v) => v.labels.method === method && v.labels.outcome === outcome,
    )?.value ?? 0;

  describe('requests', () => {
    it("answers with the method's result under the request's id, and counts it", async () => {
      expect(await send(request(7, 'fixture/echo', { a: 1 }))).toEqual({
        jsonrpc: '2.0',
        id: 7,
        result: {
          params: { a: 1 },
          clientId: 'client-a',
          transport: 'stdio',
          sessionId: session.id,
        },
      });
      expect(await counted('fixture/echo', 'success')).toBe(1);
    });

    it('answers an unknown method with -32601 naming it, counted as (rejected)', async () => {
      const error = await errorOf(request('u1', 'no/such/method'), 'u1');
      expect(error).toEqual({
        code: ErrorCode.MethodNotFound,
        message: 'Method not found: no/such/method',
        data: { method: 'no/such/method', retryable: false, traceId: TRACE_ID },
      });
      expect(await counted('(rejected)', 'protocol_error')).toBe(1);
    });

    it('answers a method 2026-07-28 removed as unknown on a modern request', async () => {
      expect(await send(request(1, 'ping'))).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      session.protocolVersion = '2026-07-28';
      expect((await errorOf(request(2, 'ping'), 2)).code).toBe(ErrorCode.MethodNotFound);
    });

    it('refuses a request before initialize with -32600, except a method allowed before it', async () => {
      session.initialized = false;
      const error = await errorOf(request(99, 'fixture/echo'), 99);
      expect(error.code).toBe(ErrorCode.InvalidRequest);
      expect(error.message).toBe(
        'Invalid Request: session is not initialized: send initialize before fixture/echo',
      );
      expect(await send(request(100, 'ping'))).toEqual({ jsonrpc: '2.0', id: 100, result: {} });
    });

    it('answers a frame that does not parse (-32700, id null) or is not a request (-32600, its id)', async () => {
      const parse = await errorOf('{"jsonrpc":"2.0","id":1,"method":"ping"', null);
      expect(parse).toMatchObject({ code: ErrorCode.ParseError, data: { traceId: TRACE_ID } });
      const invalid = await errorOf(request(6, 'fixture/echo', [1, 2] as never), 6);
      expect(invalid).toMatchObject({ code: ErrorCode.InvalidRequest, message: /params/ });
      expect(await counted('(rejected)', 'protocol_error')).toBe(2);
    });

    it('answers invalid params with -32602: from a validation pipe, naming each field, or from the method', async () => {
      const piped = await errorOf(request('p', 'spec/named', { name: 42 }), 'p');
      expect(piped).toMatchObject({
        code: ErrorCode.InvalidParams,
        data: { details: [expect.stringMatching(/^name /)], retryable: false },
      });
      expect(runs.named).toBe(0);
      const thrown = await errorOf(request('m', 'fixture/raise', { code: -32602 }), 'm');
      expect(thrown).toEqual({
        code: ErrorCode.InvalidParams,
        message: 'fixture error -32602',
        data: { retryable: false, traceId: TRACE_ID },
      });
    });

    it("answers a guard's refusal with -32003 and its data, never running the method, and audits it", async () => {
      const before = runs.guarded;
      const error = await errorOf(request('g', 'spec/guarded', { deny: true }), 'g');
      expect(error).toEqual({
        code: ErrorCode.GovernanceDenied,
        message: 'Rate limit exceeded',
        data: {
          reason: 'rate_limited',
          window: 'minute',
          remaining: { calls_minute: 0 },
          retryable: true,
          retry_after: 30,
          traceId: TRACE_ID,
        },
      });
      expect(runs.guarded).toBe(before);
      // The ledger's observer hears of the denial before the answer leaves.
      expect(audited).toHaveLength(1);
      expect(audited[0]).toMatchObject({
        cancelled: false,
        response: { id: 'g', error: { code: ErrorCode.GovernanceDenied } },
        context: { method: 'spec/guarded', clientId: 'client-a' },
      });
      expect(await counted('spec/guarded', 'denied')).toBe(1);
    });

    it('answers an unexpected handler error with -32603 and an incident id, never its message', async () => {
      const error = await errorOf(request('boom', 'fixture/raise', { plain: true }), 'boom');
      expect(error.message).toMatch(INCIDENT);
      expect(error.data).toEqual({
        retryable: true,
        incident_id: expect.any(String),
        traceId: TRACE_ID,
      });
      expect(error.message).toContain(error.data.incident_id as string);
      expect(JSON.stringify(error)).not.toContain('secret internal detail');
      expect(await counted('fixture/raise', 'internal_error')).toBe(1);
    });

    it("answers a handler's gateway error with its code, message and retry hint", async () => {
      const error = await errorOf(
        request('q', 'fixture/raise', { code: -32003, message: 'quota exceeded', retry_after: 42 }),
        'q',
      );
      expect(error).toEqual({
        code: ErrorCode.GovernanceDenied,
        message: 'quota exceeded',
        data: { retryable: false, retry_after: 42, traceId: TRACE_ID },
      });
    });

    it('answers a result JSON cannot carry with -32603 for its id', async () => {
      const error = await errorOf(request('big', 'fixture/unserializable', {}), 'big');
      expect(error.code).toBe(ErrorCode.InternalError);
      expect(error.message).toMatch(/could not be serialized as JSON/);
    });

    it('sends nothing for a request the client cancelled, and forgets it', async () => {
      const pending = send(request('slow', 'fixture/sleep', { ms: 10_000 }));
      expect(session.inflightCount).toBe(1);
      expect(session.cancelRequest('slow', 'user gave up')).toBe(true);
      expect(await pending).toBeUndefined();
      expect(session.inflightCount).toBe(0);
    });

    it('turns the answer into an error when the audit trail cannot record the call', async () => {
      app.get(AuditTrail).register({
        callCompleted: () => Promise.reject(new Error('ledger write failed')),
      });
      const before = runs.guarded;
      const error = await errorOf(request('a', 'spec/guarded', {}), 'a');
      expect(error.code).toBe(ErrorCode.InternalError);
      // The method ran; its answer is withheld because the ledger lacks it.
      expect(runs.guarded).toBe(before + 1);
    });
  });

  describe('limits checked before any guard or method', () => {
    it('refuses a resource URI over limits.resource_uri_max_chars with -32602, ledgering a clipped target', async () => {
      const uri = `skill://c/n/${'x'.repeat(3000)}`;
      const before = runs.read;
      const error = await errorOf(request('r', 'spec/read', { uri }), 'r');
      expect(error).toEqual({
        code: ErrorCode.InvalidParams,
        message: `A resource URI of ${uri.length} characters exceeds limits.resource_uri_max_chars (2048)`,
        data: {
          limit: 'limits.resource_uri_max_chars',
          max: 2048,
          retryable: false,
          traceId: TRACE_ID,
        },
      });
      expect(runs.read).toBe(before);
      expect(audited[0].context.call).toMatchObject({
        target: `${uri.slice(0, 256)}…`,
        argumentsOverLimit: 'limits.resource_uri_max_chars',
      });
    });

    it('refuses arguments over limits.argument_* with -32602 naming the limit', async () => {
      await app.close();
      await boot({ limits: { argument_max_keys: 3 } });
      const before = runs.args;
      const error = await errorOf(
        request('x', 'spec/args', { arguments: { a: 1, b: 2, c: 3, d: 4 } }),
        'x',
      );
      expect(error).toMatchObject({
        code: ErrorCode.InvalidParams,
        data: { limit: 'limits.argument_max_keys', max: 3 },
      });
      expect(error.message).toMatch(
        /^params\.arguments .*exceeds limits\.argument_max_keys \(3\)$/,
      );
      expect(runs.args).toBe(before);
      expect(audited[0].context.call.argumentsOverLimit).toBe('limits.argument_max_keys');
    });
  });

  describe('notifications and responses', () => {
    it('runs a notification and answers nothing, even when its handler fails', async () => {
      const before = runs.notified;
      expect(await send(notification('notifications/spec'))).toBeUndefined();
      expect(await send(notification('notifications/spec', { fail: true }))).toBeUndefined();
      expect(runs.notified).toBe(before + 2);
      // A request method called without an id is a notification too.
      const guardedBefore = runs.guarded;
      expect(await send(notification('spec/guarded'))).toBeUndefined();
      expect(runs.guarded).toBe(guardedBefore + 1);
    });

    it('ignores an unknown notification and a response to no pending request', async () => {
      expect(await send(notification('notifications/nobody'))).toBeUndefined();
      expect(await send({ jsonrpc: '2.0', id: 'x', result: {} })).toBeUndefined();
      expect(await counted('(rejected)', 'protocol_error')).toBe(0);
    });
  });

  describe('batches', () => {
    it('answers each request of a batch in order, notifications adding nothing', async () => {
      const before = runs.notified;
      const answers = await send([
        request(1, 'fixture/echo', { n: 1 }),
        notification('notifications/spec'),
        request(2, 'no/such/method'),
        request(3, 'spec/guarded', { deny: true }),
        42,
        { jsonrpc: '2.0', id: 'no-method' },
      ]);
      expect(answers).toEqual([
        expect.objectContaining({ id: 1, result: expect.objectContaining({ params: { n: 1 } }) }),
        expect.objectContaining({ id: 2, error: expect.objectContaining({ code: -32601 }) }),
        expect.objectContaining({ id: 3, error: expect.objectContaining({ code: -32003 }) }),
        // An element that is no message at all has no id to answer under.
        expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
        expect.objectContaining({
          id: 'no-method',
          error: expect.objectContaining({ code: -32600 }),
        }),
      ]);
      expect(runs.notified).toBe(before + 1);
    });

    it('answers a batch of notifications only with nothing at all', async () => {
      expect(
        await send([notification('notifications/spec'), notification('notifications/spec')]),
      ).toBeUndefined();
    });

    it('refuses initialize inside a batch and answers the rest', async () => {
      const answers = (await send([
        request('i', 'initialize', {}),
        request('e', 'fixture/echo', {}),
      ])) as JsonRpcResponse[];
      expect(answers.map((a) => [a.id, 'error' in a ? a.error.message : 'result'])).toEqual([
        ['i', 'Invalid Request: initialize must not be part of a batch'],
        ['e', 'result'],
      ]);
    });

    it('refuses a batch with one -32600 on revisions without batching, running none of it', async () => {
      session.protocolVersion = '2025-06-18';
      const before = runs.guarded;
      const error = await errorOf([request(1, 'spec/guarded', {})], null);
      expect(error.code).toBe(ErrorCode.InvalidRequest);
      expect(error.message).toBe(
        'Invalid Request: JSON-RPC batches are not supported in protocol version 2025-06-18',
      );
      expect(runs.guarded).toBe(before);
    });

    it('withholds the answers past limits.batch_max_response_bytes, each replaced by an error for its id', async () => {
      await app.close();
      await boot({ limits: { batch_max_response_bytes: 1024 } });
      const answers = (await send([
        request(1, 'fixture/echo', {}),
        request(2, 'fixture/echo', { padding: 'x'.repeat(1024) }),
        request(3, 'fixture/echo', {}),
      ])) as JsonRpcResponse[];
      expect(answers.map((a) => ('error' in a ? [a.id, a.error.data] : [a.id, 'result']))).toEqual([
        [1, 'result'],
        [
          2,
          {
            limit: 'limits.batch_max_response_bytes',
            max: 1024,
            retryable: false,
            traceId: TRACE_ID,
          },
        ],
        [
          3,
          {
            limit: 'limits.batch_max_response_bytes',
            max: 1024,
            retryable: false,
            traceId: TRACE_ID,
          },
        ],
      ]);
    });
  });
});
