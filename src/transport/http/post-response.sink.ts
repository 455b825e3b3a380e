import { ServerResponse } from 'node:http';
import { JsonRpcMessage, JsonRpcResponse } from '../../json-rpc/json-rpc.types';
import { McpSession } from '../../session/mcp-session';
import { MessageSink } from '../../session/message-sink';
import { SseHub } from './sse.hub';
import { sendJson } from './http-reply';
import { serializeOutbound } from '../../json-rpc/json-rpc.serializer';
import { PostStreamRecorder } from './post-stream-records';
import {
  acceptsPriming,
  ResumablePostStream,
  SessionSseState,
  SseConnection,
  writeRecord,
} from './sse-sessions';

/** The reconnection delay a priming event asks of the client (SSE `retry:`), in milliseconds. */
export const SSE_RETRY_MS = 1000;

/**
 * The answer to one POST /mcp. It starts as a plain JSON response and turns
 * into an SSE stream the first time the request emits a notification or a
 * server-to-client request, when the client accepts text/event-stream.
 *
 * Once it is a stream (SEP-1699): every event carries an id and is kept in the
 * session's replay log; clients of 2025-11-25 and later first get a priming
 * event (an id, a `retry:` delay and empty data). When the connection ends
 * after the client got an id (the client went away, or the call closed it on
 * purpose with closeConnection), the stream goes on without a connection and a
 * `GET /mcp` with `Last-Event-ID` resumes it: the missed events, then the rest
 * live, up to the response, after which the resumed connection is closed.
 */
export class PostResponseSink implements MessageSink, ResumablePostStream {
  /** What currently carries the stream: the POST's own response, a resuming GET's, or another replica's. */
  private connection?: SseConnection;
  private streamId?: string;
  /** The client holds an event id of this stream, so it can resume it. */
  private resumable = false;
  private finished = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly hub: SseHub,
    private readonly acceptsSse: boolean,
    private readonly session: McpSession,
    private readonly sse: SessionSseState,
    /** Tells the other replicas which requests the stream answers (shared sessions only). */
    private readonly recorder?: PostStreamRecorder,
  ) {}

  get open(): boolean {
    if (this.finished) return false;
    // A stream the client can resume stays open for messages while no connection carries it.
    if (this.streamId !== undefined) return this.resumable || this.connected;
    return this.acceptsSse && !this.res.destroyed && !this.res.headersSent;
  }

  get connected(): boolean {
    return this.connection?.open === true;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (!this.open) return;
    this.startStream();
    for (const one of Array.isArray(message) ? message : [message]) this.emit(one);
  }

  /** Writes the final answer: on the stream if one was opened, else as JSON (202 when nothing). */
  finish(result: JsonRpcResponse | JsonRpcResponse[] | undefined): void {
    if (this.finished) return;
    this.finished = true;
    if (this.streamId !== undefined) {
      if (result !== undefined) {
        for (const one of Array.isArray(result) ? result : [result]) this.emit(one);
      }
      this.connection?.close();
      this.sse.finishPostStream(this.streamId);
      this.recorder?.finished(this.streamId);
      return;
    }
    if (this.res.headersSent) return;
    if (result === undefined) {
      this.res.statusCode = 202;
      this.res.end();
      return;
    }
    sendJson(this.res, 200, result);
  }

  closeConnection(): boolean {
    if (!this.open) return false;
    // A client that cannot take a priming event gets no id before the first message, so it could not resume.
    if (this.streamId === undefined && !acceptsPriming(this.session.protocolVersion)) return false;
    this.startStream();
    if (!this.resumable) return false;
    this.connection?.close();
    return true;
  }

  attach(connection: SseConnection): void {
    // A connection the client left without the gateway noticing yet must not linger.
    if (this.connection !== connection) this.connection?.close();
    this.connection = connection;
    // The resume itself proves that the client holds an id of this stream.
    this.resumable = true;
  }

  /** Switches the response to SSE (once), registering the stream for resumption. */
  private startStream(): void {
    if (this.streamId !== undefined) return;
    this.connection = this.hub.open(this.res, headersOf(this.res));
    this.streamId = this.sse.openPostStream(this);
    // Before the first event: a client can only resume the stream after it saw one.
    this.recorder?.opened(this.streamId);
    if (acceptsPriming(this.session.protocolVersion)) {
      const id = this.sse.log.nextId(this.streamId);
      this.resumable = this.connection.writeEvent({ id, retry: SSE_RETRY_MS, data: '' });
    }
  }

  /** Logs a message under this stream and writes it to the current connection, if any. */
  private emit(message: JsonRpcMessage): void {
    const text = serializeOutbound(message);
    if (text === undefined) return;
    const record = this.sse.log.append(this.streamId!, text);
    if (this.connection?.open && writeRecord(this.connection, record)) this.resumable = true;
  }
}

/** Headers already set on the response (Mcp-Session-Id) must survive the switch to SSE. */
function headersOf(res: ServerResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value !== undefined)
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}
