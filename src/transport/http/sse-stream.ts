import { Logger } from '@nestjs/common';
import { serializeOutbound } from '../../json-rpc/json-rpc.serializer';
import { ServerResponse } from 'node:http';
import { JsonRpcMessage } from '../../json-rpc/json-rpc.types';
import { MessageSink } from '../../session/message-sink';

/** The fields of one SSE event (`data` is required; the others are optional). */
export interface SseEventFields {
  event?: string;
  id?: string;
  retry?: number;
  data: string;
}

/**
 * Output a stream may hold unread before it is cut: a client that stops
 * reading must not make the gateway buffer without bound. It can reconnect
 * (with Last-Event-ID, to have the missed events replayed). One event larger
 * than this still goes out whole: the check is on what the peer left unread.
 */
export const SSE_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

const logger = new Logger('SseStream');

/**
 * One Server-Sent Events response. Owns its keep-alive timer and releases it,
 * and every listener it added, the moment the peer goes away.
 */
export class SseStream implements MessageSink {
  private ended = false;
  private keepAlive?: NodeJS.Timeout;

  /** True while the keep-alive timer runs (it must stop the moment the stream ends). */
  get keepAliveActive(): boolean {
    return this.keepAlive !== undefined;
  }
  private readonly closeListeners: Array<() => void> = [];
  private readonly onSocketClose = () => this.close();

  constructor(
    private readonly res: ServerResponse,
    keepAliveMs: number,
    headers: Record<string, string> = {},
  ) {
    res.writeHead(200, {
      ...headers,
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      // A draining gateway marked the response to close its connection; that must stand.
      Connection: res.getHeader('Connection') === 'close' ? 'close' : 'keep-alive',
      // Reverse proxies (nginx) must not buffer the stream.
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.on('close', this.onSocketClose);
    this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), keepAliveMs);
  }

  get open(): boolean {
    return !this.ended && !this.res.writableEnded && !this.res.destroyed;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    for (const one of Array.isArray(message) ? message : [message]) {
      const data = serializeOutbound(one);
      if (data !== undefined) this.writeEvent({ event: 'message', data });
    }
  }

  sendEvent(event: string, data: string): void {
    this.writeEvent({ event, data });
  }

  /**
   * One event with the fields given: `id` lets the client resume after it
   * (Last-Event-ID), `retry` sets its reconnection delay. Empty data is written
   * as a bare `data:` line (a priming event). False when the stream is closed.
   */
  writeEvent(fields: SseEventFields): boolean {
    let chunk = fields.event === undefined ? '' : `event: ${fields.event}\n`;
    if (fields.id !== undefined) chunk += `id: ${fields.id}\n`;
    if (fields.retry !== undefined) chunk += `retry: ${fields.retry}\n`;
    chunk +=
      fields.data === ''
        ? 'data:\n'
        : fields.data
            .split('\n')
            .map((line) => `data: ${line}\n`)
            .join('');
    return this.write(`${chunk}\n`);
  }

  onClose(listener: () => void): void {
    if (this.ended) listener();
    else this.closeListeners.push(listener);
  }

  /**
   * Ends the stream with a bare `retry:` field (no event), which sets how long
   * the client waits before it reconnects: elsewhere, when this gateway drains.
   */
  closeWithRetry(retryMs: number): void {
    this.write(`retry: ${retryMs}\n\n`);
    this.close();
  }

  /** Ends the response (if still open) and frees the timer and listeners; idempotent. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    this.res.off('close', this.onSocketClose);
    if (!this.res.writableEnded && !this.res.destroyed) this.res.end();
    for (const listener of this.closeListeners.splice(0)) listener();
  }

  private write(chunk: string): boolean {
    if (!this.open) return false;
    if (this.res.writableLength > SSE_MAX_BUFFERED_BYTES) {
      logger.warn({
        msg: 'SSE client stopped reading; stream closed',
        unreadBytes: this.res.writableLength,
        limitBytes: SSE_MAX_BUFFERED_BYTES,
      });
      // Destroyed, not ended: ending would keep the unread bytes queued behind it.
      this.res.destroy();
      this.close();
      return false;
    }
    this.res.write(chunk);
    return true;
  }
}
