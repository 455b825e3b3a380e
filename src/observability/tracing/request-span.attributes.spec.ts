import { failure, success } from '../../json-rpc/json-rpc.responses';
import { JsonRpcRequest } from '../../json-rpc/json-rpc.types';
import { McpSession } from '../../session/mcp-session';
import { requestSpanAttributes } from './request-span.attributes';

const session = new McpSession('stdio', 'c1');
session.protocolVersion = '2025-11-25';
const call = (method: string, params: Record<string, unknown>): JsonRpcRequest => ({
  jsonrpc: '2.0',
  id: 3,
  method,
  params,
});

describe('the attributes of a request span', () => {
  it('names the method, client, session, revision, outcome and the tool called', () => {
    const request = call('tools/call', { name: 'fx_add' });
    expect(requestSpanAttributes(request, session, undefined, success(3, {}))).toEqual({
      'rpc.system': 'jsonrpc',
      'rpc.method': 'tools/call',
      'rpc.jsonrpc.request_id': '3',
      'rpc.jsonrpc.error_code': undefined,
      'mcp.method': 'tools/call',
      'mcp.client_id': 'c1',
      'mcp.session_id': session.id,
      'mcp.protocol_version': '2025-11-25',
      'mcp.outcome': 'success',
      'mcp.task.id': undefined,
      'mcp.tool': 'fx_add',
    });
  });

  it('gives a failure its error code and outcome, a cancelled request its own outcome', () => {
    const request = call('resources/read', { uri: 'skill://a/b' });
    const failed = requestSpanAttributes(request, session, undefined, failure(3, -32002, 'gone'));
    expect(failed).toMatchObject({
      'rpc.jsonrpc.error_code': -32002,
      'mcp.outcome': 'not_found',
      'mcp.resource': 'skill://a/b',
    });
    expect(requestSpanAttributes(request, session, undefined, undefined)['mcp.outcome']).toBe(
      'cancelled',
    );
  });

  it('names prompts and tasks, and no target for other methods', () => {
    expect(
      requestSpanAttributes(call('prompts/get', { name: 'plan' }), session, undefined, undefined),
    ).toMatchObject({ 'mcp.prompt': 'plan' });
    expect(
      requestSpanAttributes(call('tasks/get', { taskId: 't-1' }), session, undefined, undefined),
    ).toMatchObject({ 'mcp.task.id': 't-1' });
    const listed = requestSpanAttributes(
      call('ping', { name: 'x' }),
      session,
      undefined,
      undefined,
    );
    expect(Object.keys(listed).filter((key) => key.endsWith('.name'))).toEqual([]);
  });
});
