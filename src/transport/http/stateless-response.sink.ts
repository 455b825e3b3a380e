import { ServerResponse } from 'node:http';
import { JsonRpcMessage, JsonRpcResponse } from '../../json-rpc/json-rpc.types';
import { HoldableSink } from '../../session/message-sink';
import { sendJson } from './http-reply';
import { SseHub } from './sse.hub';
import { SseStream } from './sse-stream';

/**
 * The answer to one stateless (2026-07-28) POST: JSON, or an SSE stream from
 * the first notification of the request (progress, log messages) to its
 * response. Unlike a session's POST stream its events carry no ids and
 * cannot be resumed (the revision removed that): when the client closes the
 * connection before the answer, the request is cancelled.
 */
export class StatelessResponseSink implements HoldableSink {
  private stream?: SseStream;
  private finished = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly hub: SseHub,
    private readonly acceptsSse: boolean,
    /** The HTTP status of a JSON answer (400/404 for the errors the transport assigns them). */
    private readonly statusOf: (response: JsonRpcResponse) => number,
    onClientGone: () => void,
  ) {
    res.on('close', () => {
      if (!this.finished) onClientGone();
    });
  }

  get open(): boolean {
    if (this.finished) return false;
    if (this.stream) return this.stream.open;
    return this.acceptsSse && !this.res.destroyed && !this.res.headersSent;
  }

  /** Turns the answer into a stream held open (and capped) until the request ends. */
  hold(clientId: string): boolean {
    if (this.stream) return this.stream.open;
    if (!this.open) return false;
    const held = this.hub.openHeld(clientId, this.res);
    if (held === undefined) {
      // The caps refused it and wrote the refusal: nothing more goes to this response.
      this.finished = true;
      return false;
    }
    this.stream = held;
    return true;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (!this.open) return;
    this.stream ??= this.hub.open(this.res);
    this.stream.send(message);
  }

  /** Writes the response: on the stream when one was opened, else as JSON (202 for a notification). */
  finish(response: JsonRpcResponse | undefined): void {
    if (this.finished) return;
    this.finished = true;
    if (this.stream) {
      if (response !== undefined) this.stream.send(response);
      this.stream.close();
      return;
    }
    if (this.res.headersSent || this.res.destroyed) return;
    if (response === undefined) {
      this.res.statusCode = 202;
      this.res.end();
      return;
    }
    sendJson(this.res, this.statusOf(response), response);
  }
}
