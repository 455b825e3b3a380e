import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { RequestCancelledError } from '../errors/request-cancelled.error';
import { JsonRpcMessage } from '../json-rpc/json-rpc.types';
import { McpSession } from './mcp-session';
import { MessageSink } from './message-sink';

class ArraySink implements MessageSink {
  open = true;
  readonly sent: JsonRpcMessage[] = [];
  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    this.sent.push(...(Array.isArray(message) ? message : [message]));
  }
}

describe('McpSession', () => {
  it('aborts a cancelled request with a RequestCancelledError', () => {
    const session = new McpSession('stdio', 'c');
    const controller = session.beginRequest(5);
    expect(session.cancelRequest('5', 'x')).toBe(false);
    expect(session.cancelRequest(5, 'user pressed stop')).toBe(true);
    expect(controller.signal.reason).toBeInstanceOf(RequestCancelledError);
  });

  it('prefers the request stream and falls back to the standalone stream', () => {
    const session = new McpSession('streamable-http', 'c');
    const standalone = new ArraySink();
    const requestStream = new ArraySink();
    session.attachStandalone(standalone);
    session.notify('a', {}, requestStream);
    requestStream.open = false;
    session.notify('b', {}, requestStream);
    expect(requestStream.sent.map((m) => 'method' in m && m.method)).toEqual(['a']);
    expect(standalone.sent.map((m) => 'method' in m && m.method)).toEqual(['b']);
  });

  it('routes the client answer to the pending server request', async () => {
    const session = new McpSession('stdio', 'c');
    const sink = new ArraySink();
    session.attachStandalone(sink);
    const answer = session.request('roots/list', {}, { timeoutMs: 1000 });
    const sent = sink.sent[0] as { id: string };
    expect(session.resolveResponse({ jsonrpc: '2.0', id: sent.id, result: { roots: [] } })).toBe(
      true,
    );
    await expect(answer).resolves.toEqual({ roots: [] });
    expect(session.resolveResponse({ jsonrpc: '2.0', id: sent.id, result: {} })).toBe(false);
  });

  it('fails a server request without an open stream instead of hanging', async () => {
    const session = new McpSession('streamable-http', 'c');
    await expect(session.request('roots/list', {}, { timeoutMs: 1000 })).rejects.toBeInstanceOf(
      GatewayError,
    );
  });

  it('times out a server request the client never answers', async () => {
    const session = new McpSession('stdio', 'c');
    session.attachStandalone(new ArraySink());
    await expect(
      session.request('sampling/createMessage', {}, { timeoutMs: 20 }),
    ).rejects.toMatchObject({
      code: ErrorCode.Timeout,
    });
    expect(session.busy).toBe(true); // the standalone sink is still open
  });

  it('close aborts work, rejects pending requests and runs listeners once', async () => {
    const session = new McpSession('stdio', 'c');
    session.attachStandalone(new ArraySink());
    const controller = session.beginRequest('r');
    const pending = session.request('roots/list', {}, { timeoutMs: 10_000 });
    let closes = 0;
    const unsubscribe = session.onClose(() => closes++);
    session.onClose(() => closes++);
    unsubscribe();
    session.close();
    session.close();
    expect(controller.signal.aborted).toBe(true);
    await expect(pending).rejects.toThrow('Session closed');
    expect(closes).toBe(1);
    expect(session.closeListenerCount).toBe(0);
  });
});
