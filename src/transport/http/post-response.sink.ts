import { Response } from 'express';
import { JsonRpcMessage, JsonRpcResponse } from '../../json-rpc/json-rpc.types';
import { MessageSink } from '../../session/message-sink';
import { SseHub } from './sse.hub';
import { SseStream } from './sse-stream';
import { sendJson } from './http-reply';

/**
 * The answer to one POST /mcp. It starts as a plain JSON response and turns
 * into an SSE stream the first time the request emits a notification or a
 * server-to-client request, when the client accepts text/event-stream.
 */
export class PostResponseSink implements MessageSink {
  private stream?: SseStream;
  private finished = false;

  constructor(
    private readonly res: Response,
    private readonly hub: SseHub,
    private readonly acceptsSse: boolean,
  ) {}

  get open(): boolean {
    if (this.finished || !this.acceptsSse || this.res.destroyed) return false;
    return this.stream ? this.stream.open : !this.res.headersSent;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (!this.open) return;
    this.stream ??= this.hub.open(this.res, headersOf(this.res));
    this.stream.send(message);
  }

  /** Writes the final answer: on the stream if one was opened, else as JSON (202 when nothing). */
  finish(result: JsonRpcResponse | JsonRpcResponse[] | undefined): void {
    this.finished = true;
    if (this.stream) {
      if (result !== undefined) this.stream.send(result);
      this.stream.close();
      return;
    }
    if (this.res.headersSent) return;
    if (result === undefined) {
      this.res.status(202).end();
      return;
    }
    sendJson(this.res, 200, result);
  }
}

/** Headers already set on the response (Mcp-Session-Id) must survive the switch to SSE. */
function headersOf(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value !== undefined)
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}
