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

describe('the attributes of a request span set when it ends', () => {
  it('names the revision and the tool called (method, identity and outcome are set by start and end)', () => {
    const request = call('tools/call', { name: 'fx_add' });
    expect(requestSpanAttributes(request, session, undefined)).toEqual({
      'mcp.protocol_version': '2025-11-25',
      'mcp.task.id': undefined,
      'mcp.tool': 'fx_add',
    });
  });

  it('names resources, prompts and tasks, and no target for other methods', () => {
    expect(
      requestSpanAttributes(call('resources/read', { uri: 'skill://a/b' }), session, undefined),
    ).toMatchObject({ 'mcp.resource': 'skill://a/b' });
    expect(
      requestSpanAttributes(call('prompts/get', { name: 'plan' }), session, undefined),
    ).toMatchObject({ 'mcp.prompt': 'plan' });
    expect(
      requestSpanAttributes(call('tasks/get', { taskId: 't-1' }), session, undefined),
    ).toMatchObject({ 'mcp.task.id': 't-1' });
    const pinged = requestSpanAttributes(call('ping', { name: 'x' }), session, undefined);
    expect(Object.keys(pinged)).toEqual(['mcp.protocol_version', 'mcp.task.id']);
  });

  it('clips a client-chosen target', () => {
    const long = 'x'.repeat(5_000);
    const attributes = requestSpanAttributes(
      call('tools/call', { name: long }),
      session,
      undefined,
    );
    expect(String(attributes['mcp.tool']).length).toBeLessThan(1_000);
  });
});
