import { Logger } from '@nestjs/common';
import { DEFAULT_CONFIG } from '../config/config.defaults';
import { GatewayConfig } from '../config/gateway-config';
import { failure, success } from '../json-rpc/json-rpc.responses';
import { JsonRpcRequest } from '../json-rpc/json-rpc.types';
import { McpSession } from '../session/mcp-session';
import { GatewayLogger } from './gateway-logger';
import { EndedRequest, RequestLog } from './request-log';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/** A RequestLog writing through the real GatewayLogger into an array of parsed lines. */
function capture(logging: Partial<GatewayConfig['logging']> = {}) {
  const config = structuredClone<GatewayConfig>(DEFAULT_CONFIG);
  Object.assign(config.logging, logging);
  const lines: string[] = [];
  Logger.overrideLogger(
    new GatewayLogger(config.logging, { write: (line: string) => void lines.push(line) }),
  );
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { log: new RequestLog(config), parsed };
}

const session = new McpSession('stdio', 'c1');

function ended(request: Partial<JsonRpcRequest>, rest: Partial<EndedRequest> = {}): EndedRequest {
  const message: JsonRpcRequest = { jsonrpc: '2.0', id: 7, method: 'tools/call', ...request };
  return {
    request: message,
    session,
    response: success(message.id, {}),
    traceId: TRACE_ID,
    durationMs: 1.23456,
    ...rest,
  };
}

describe('RequestLog', () => {
  afterEach(() => {
    Logger.overrideLogger(false);
  });

  it('writes one info line with the request, its target, ids, duration and outcome', () => {
    const { log, parsed } = capture();
    log.ended(ended({ params: { name: 'fx_add', arguments: { a: 1 } } }));
    expect(parsed()).toEqual([
      expect.objectContaining({
        level: 30,
        context: 'McpRequest',
        msg: 'mcp request',
        method: 'tools/call',
        target: 'fx_add',
        clientId: 'c1',
        sessionId: session.id,
        requestId: '7',
        traceId: TRACE_ID,
        durationMs: 1.235,
        outcome: 'success',
      }),
    ]);
    expect(parsed()[0]).not.toHaveProperty('params');
  });

  it('logs failures at the level they deserve, gateway faults with their incident id', () => {
    const { log, parsed } = capture();
    const fail = (code: number, data?: unknown) => ({ response: failure(7, code, 'm', data) });
    log.ended(ended({}, fail(-32602)));
    log.ended(ended({}, fail(-32005)));
    log.ended(ended({}, fail(-32603, { incident_id: 'inc-1' })));
    expect(parsed().map((line) => [line.level, line.outcome, line.errorCode])).toEqual([
      [30, 'protocol_error', -32602],
      [40, 'execution_error', -32005],
      [50, 'internal_error', -32603],
    ]);
    expect(parsed()[2].incidentId).toBe('inc-1');
    expect(parsed()[0].error).toBe('m');
  });

  it('with a success ratio of 0 keeps failures and tool errors only', () => {
    const { log, parsed } = capture({ request_log_success_sample_ratio: 0 });
    log.ended(ended({ id: 'ok' }));
    log.ended(ended({ id: 'gone' }, { response: undefined }));
    log.ended(ended({ id: 'tool' }, { response: success('tool', { isError: true }) }));
    log.ended(ended({ id: 'bad' }, { response: failure('bad', -32601, 'no such method') }));
    expect(parsed().map((line) => [line.requestId, line.outcome])).toEqual([
      ['tool', 'tool_error'],
      ['bad', 'protocol_error'],
    ]);
  });

  it('writes nothing when the request log is off', () => {
    const { log, parsed } = capture({ request_log: false });
    log.ended(ended({}, { response: failure(7, -32603, 'm') }));
    log.refused({ response: failure(null, -32700, 'Parse error'), traceId: TRACE_ID });
    expect(parsed()).toEqual([]);
  });

  it('at debug shows the arguments, redacted like the ledger and cut to 2,048 characters', () => {
    const { log, parsed } = capture({ level: 'debug' });
    const params = { name: 'fx', arguments: { api_key: 'sekrit', note: 'n'.repeat(5000) } };
    log.ended(ended({ params }, { loggableParams: ['arguments'] }));
    const line = parsed()[0];
    expect(line.params).toHaveLength(2048);
    expect(line.params).toMatch(/^\{"arguments":\{"api_key":"\[REDACTED\]","note":"nnn/);
    expect(line.paramsLength).toBeGreaterThan(5000);
    expect(JSON.stringify(line)).not.toContain('sekrit');
  });

  it("redacts a failure's message like the ledger's", () => {
    const { log, parsed } = capture();
    log.ended(ended({}, { response: failure(7, -32005, 'upstream said password=hunter2') }));
    expect(parsed()[0].error).toBe('upstream said password=[REDACTED]');
  });

  it('never shows params that did not pass the argument limits', () => {
    const { log, parsed } = capture({ level: 'debug' });
    log.ended(ended({ params: { name: 'fx', arguments: { a: 1 } } }));
    expect(parsed()[0]).not.toHaveProperty('params');
  });

  it('cuts what a client chose (method, id, target) to a bounded length', () => {
    const { log, parsed } = capture();
    const long = 'x'.repeat(100_000);
    log.ended(ended({ id: long, method: long, params: { name: long } }));
    const line = parsed()[0];
    expect(String(line.method)).toHaveLength(128);
    expect(String(line.requestId)).toHaveLength(128);
    expect(String(line.target)).toHaveLength(256);
  });

  it('logs a refused message without a method, with its trace id', () => {
    const { log, parsed } = capture();
    log.refused({ response: failure(null, -32700, 'Parse error: x'), traceId: TRACE_ID });
    expect(parsed()[0]).toMatchObject({
      level: 30,
      msg: 'mcp request',
      traceId: TRACE_ID,
      outcome: 'protocol_error',
      errorCode: -32700,
      error: 'Parse error: x',
    });
    expect(parsed()[0]).not.toHaveProperty('method');
  });
});
