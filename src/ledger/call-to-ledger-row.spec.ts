import { createHash } from 'node:crypto';
import { prepareResponse } from '../json-rpc/json-rpc.serializer';
import { RequestAbort } from '../common/request-abort';
import { CompletedCall } from '../json-rpc/call-observers';
import { JsonRpcId, JsonRpcParams, JsonRpcResponse } from '../json-rpc/json-rpc.types';
import { VerifiedToken } from '../governance/identity/oauth/verified-token';
import { CallRecord, McpRequestContext } from '../json-rpc/mcp-request-context';
import { McpSession } from '../session/mcp-session';
import { ArgumentRedactor } from './argument-redactor';
import { requestIdText, toLedgerRow } from './call-to-ledger-row';
import { LEDGER_ERROR_MESSAGE_MAX } from './ledger.constants';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const text = (value: string) => ({ type: 'text', text: value });

const session = new McpSession('streamable-http', 'client-7');
const options = { recordArguments: true, redactor: new ArgumentRedactor(['password', 'token']) };

function completed(
  method: string,
  params: JsonRpcParams,
  response: JsonRpcResponse | undefined,
  call: CallRecord = {},
  id: JsonRpcId = 5,
): CompletedCall {
  const abort = new RequestAbort();
  const context: McpRequestContext = {
    method,
    requestId: id,
    session,
    clientId: session.clientId,
    transport: session.transport,
    abort,
    signal: abort.signal,
    meta: {},
    call,
    responseHeaders: {},
    traceId: 'trace-1',
    notify: () => false,
    request: () => Promise.resolve(undefined),
    log: () => false,
  };
  return {
    context,
    params,
    startedAt: 1_700_000_000_000,
    durationMs: 8,
    response,
    cancelled: response === undefined,
  };
}

const ok = (result: unknown): JsonRpcResponse => ({ jsonrpc: '2.0', id: 5, result });
const fail = (code: number, data?: unknown): JsonRpcResponse => ({
  jsonrpc: '2.0',
  id: 5,
  error: { code, message: 'no', data },
});

describe('toLedgerRow', () => {
  it('takes the result size from the measured response, for numeric and string ids alike', () => {
    const result = { content: [{ type: 'text', text: 'héllo ✓' }], structuredContent: { n: 1 } };
    for (const id of [5, 'req-é-1', 0]) {
      const response: JsonRpcResponse = { jsonrpc: '2.0', id, result };
      const prepared = prepareResponse(response);
      const call = {
        ...completed('tools/call', { name: 'orders_get' }, prepared.response, {}, id),
        responseBytes: prepared.bytes,
      };
      expect(toLedgerRow(call, options).resultBytes).toBe(
        Buffer.byteLength(JSON.stringify(result)),
      );
    }
  });

  it('records a successful tools/call with redacted arguments, cost and result size', () => {
    const result = { content: [{ type: 'text', text: 'é' }] };
    const row = toLedgerRow(
      completed(
        'tools/call',
        { name: 'orders_get', arguments: { id: 1, auth: { token: 't' }, password: 'p' } },
        ok(result),
        { target: 'orders_get', cost: 3, estimatedCost: 9, executed: true },
      ),
      options,
    );
    expect(row).toEqual({
      time: 1_700_000_000_000,
      requestId: 'n:5',
      traceId: 'trace-1',
      clientId: 'client-7',
      sessionId: session.id,
      transport: 'streamable-http',
      method: 'tools/call',
      target: 'orders_get',
      arguments: '{"id":1,"auth":{"token":"[REDACTED]"},"password":"[REDACTED]"}',
      outcome: 'success',
      errorCode: null,
      denialReason: null,
      durationMs: 8,
      cost: 3,
      resultBytes: Buffer.byteLength(JSON.stringify(result)),
      costFlag: null,
      errorMessage: null,
      resultSha256: sha256(JSON.stringify(result)),
      upstreamServer: null,
      upstreamTool: null,
      subject: null,
      tokenId: null,
    });
  });

  it('names the upstream server and tool of a call that visibility resolved to an upstream tool', () => {
    const row = toLedgerRow(
      completed(
        'tools/call',
        { name: 'github__search_issues', arguments: {} },
        ok({ content: [] }),
        {
          target: 'github__search_issues',
          upstream: { server: 'github', tool: 'search_issues' },
          executed: true,
        },
      ),
      options,
    );
    expect(row).toMatchObject({
      target: 'github__search_issues',
      upstreamServer: 'github',
      upstreamTool: 'search_issues',
    });
  });

  it("records an OAuth caller's token subject and id, and a null id for a token without jti", () => {
    const token = (tokenId?: string): VerifiedToken => ({
      issuer: 'https://idp.example.com/realms/acme',
      subject: 'user-8c1f',
      clientId: 'client-7',
      tokenId,
      scopes: new Set(['mcp']),
      expiresAt: 1_700_000_600,
    });
    const call = completed('tools/call', { name: 'orders_get' }, ok({ content: [] }), {
      target: 'orders_get',
      executed: true,
    });
    const calledWith = (t: VerifiedToken) => ({ ...call, context: { ...call.context, token: t } });
    expect(toLedgerRow(calledWith(token('jti-42')), options)).toMatchObject({
      clientId: 'client-7',
      subject: 'user-8c1f',
      tokenId: 'jti-42',
    });
    expect(toLedgerRow(calledWith(token()), options)).toMatchObject({
      subject: 'user-8c1f',
      tokenId: null,
    });
  });

  it('digests the result from the serialized response, the same bytes it counts', () => {
    const result = {
      content: [{ type: 'text', text: 'héllo ✓ "q"' }],
      structuredContent: { n: 1 },
    };
    for (const id of [5, 'req-é-1']) {
      const prepared = prepareResponse({ jsonrpc: '2.0', id, result });
      // A response whose object no longer matches its text proves the text is what is read.
      const call = {
        ...completed('tools/call', { name: 'x' }, { jsonrpc: '2.0', id, result: {} }, {}, id),
        responseBytes: prepared.bytes,
        responseText: prepared.text,
      };
      expect(toLedgerRow(call, options)).toMatchObject({
        resultBytes: Buffer.byteLength(JSON.stringify(result)),
        resultSha256: sha256(JSON.stringify(result)),
      });
    }
    const errorRow = toLedgerRow(completed('tools/call', { name: 'x' }, fail(-32001)), options);
    expect(errorRow).toMatchObject({ resultBytes: 0, resultSha256: null });
  });

  it('records the error message redacted like the arguments and cut to its bound', () => {
    const failed = (message: string, response?: JsonRpcResponse) =>
      toLedgerRow(
        completed(
          'tools/call',
          { name: 'x' },
          response ?? { jsonrpc: '2.0', id: 5, error: { code: -32000, message } },
        ),
        options,
      ).errorMessage;
    expect(failed('login failed: password=hunter2 user=ann')).toBe(
      'login failed: password=[REDACTED] user=ann',
    );
    expect(failed('', ok({ content: [text('no stock'), text('token: t-9')], isError: true }))).toBe(
      'no stock\ntoken: [REDACTED]',
    );
    const long = failed(`${'x'.repeat(5_000)} password=hunter2`);
    expect(long).toHaveLength(LEDGER_ERROR_MESSAGE_MAX);
    expect(long?.endsWith('…')).toBe(true);
    // A secret straddling the bound is redacted before the cut, never cut in half.
    const straddling = failed(`${'x'.repeat(LEDGER_ERROR_MESSAGE_MAX - 12)} password=hunter2`);
    expect(straddling).not.toContain('hunt');
    expect(failed('', ok({ content: [] }))).toBeNull();
    expect(failed('', ok({ content: [text('fine')] }))).toBeNull();
  });

  it('caps a reported cost at max_cost_per_call, and charges an invalid report its estimate, flagging both', () => {
    const row = (record: CallRecord) =>
      toLedgerRow(
        completed('tools/call', { name: 'x' }, ok({ content: [] }), {
          estimatedCost: 2,
          costCap: 10,
          executed: true,
          ...record,
        }),
        options,
      );
    expect(row({ cost: 1_000_000 })).toMatchObject({ cost: 10, costFlag: 'capped' });
    expect(row({ cost: 10 })).toMatchObject({ cost: 10, costFlag: null });
    expect(row({ costReportInvalid: true })).toMatchObject({ cost: 2, costFlag: 'invalid_report' });
    // Without a cap (no quota applied), the report is charged as it is.
    expect(row({ cost: 50, costCap: undefined })).toMatchObject({ cost: 50, costFlag: null });
  });

  it('maps outcomes: tool_error, denied, timeout, error, cancelled', () => {
    const call = (response: JsonRpcResponse | undefined, record: CallRecord = {}) =>
      toLedgerRow(
        completed('tools/call', { name: 'x' }, response, { estimatedCost: 2, ...record }),
        options,
      );
    const ran: CallRecord = { executed: true };

    expect(call(ok({ content: [], isError: true }), ran)).toMatchObject({
      outcome: 'tool_error',
      errorCode: null,
      cost: 2,
    });
    expect(call(fail(-32003), { denialReason: 'rate_limited' })).toMatchObject({
      outcome: 'denied',
      errorCode: -32003,
      denialReason: 'rate_limited',
      cost: 0,
      resultBytes: 0,
    });
    expect(call(fail(-32003, { reason: 'budget_exceeded' }))).toMatchObject({
      denialReason: 'budget_exceeded',
    });
    expect(call(fail(-32004), ran)).toMatchObject({
      outcome: 'timeout',
      errorCode: -32004,
      cost: 2,
    });
    expect(call(fail(-32001))).toMatchObject({ outcome: 'error', errorCode: -32001, cost: 0 });
    expect(call(fail(-32602))).toMatchObject({ outcome: 'error', errorCode: -32602, cost: 0 });
    // Cancelling a running call does not dodge its cost; cancelling before it ran costs nothing.
    expect(call(undefined, { ...ran, cost: 5 })).toMatchObject({
      outcome: 'cancelled',
      errorCode: null,
      cost: 5,
    });
    expect(call(undefined)).toMatchObject({ outcome: 'cancelled', cost: 0 });
    expect(call(ok({}), ran)).toMatchObject({ cost: 2 });
    expect(toLedgerRow(completed('tools/call', { name: 'x' }, ok({})), options).cost).toBe(0);
  });

  it('falls back to params for the target and records resources/read arguments', () => {
    const row = toLedgerRow(
      completed(
        'resources/read',
        { uri: 'skill://a/b', range: { start: 0 }, extra: 1 },
        fail(-32002),
      ),
      options,
    );
    expect(row).toMatchObject({
      target: 'skill://a/b',
      arguments: '{"uri":"skill://a/b","range":{"start":0}}',
      outcome: 'error',
    });
    expect(
      toLedgerRow(completed('tools/call', { name: 'ghost' }, fail(-32001)), options),
    ).toMatchObject({
      target: 'ghost',
      arguments: '{}',
    });
  });

  it('stores null arguments when argument recording is off', () => {
    const row = toLedgerRow(completed('tools/call', { name: 'x', arguments: { a: 1 } }, ok({})), {
      ...options,
      recordArguments: false,
    });
    expect(row.arguments).toBeNull();
  });

  it('keeps string and number request ids apart', () => {
    expect(requestIdText('1')).toBe('s:1');
    expect(requestIdText(1)).toBe('n:1');
    expect(toLedgerRow(completed('tools/call', {}, ok({}), {}, 'abc'), options).requestId).toBe(
      's:abc',
    );
  });
});
