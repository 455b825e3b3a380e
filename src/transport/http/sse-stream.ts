import { Response } from 'express';
import { JsonRpcMessage } from '../../json-rpc/json-rpc.types';
import { MessageSink } from '../../session/message-sink';

/**
 * One Server-Sent Events response. Owns its keep-alive timer and releases it,
 * and every listener it added, the moment the peer goes away.
 */
export class SseStream implements MessageSink {
  private ended = false;
  private keepAlive?: NodeJS.Timeout;
  private readonly closeListeners: Array<() => void> = [];
  private readonly onSocketClose = () => this.close();

  constructor(
    private readonly res: Response,
    keepAliveMs: number,
    headers: Record<string, string> = {},
  ) {
    res.writeHead(200, {
      ...headers,
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
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
      this.write(`event: message\ndata: ${JSON.stringify(one)}\n\n`);
    }
  }

  sendEvent(event: string, data: string): void {
    this.write(`event: ${event}\ndata: ${data}\n\n`);
  }

  onClose(listener: () => void): void {
    if (this.ended) listener();
    else this.closeListeners.push(listener);
  }

  /** Ends the response (if still open) and frees the timer and listeners; idempotent. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    this.res.off('close', this.onSocketClose);
    if (!this.res.writableEnded) this.res.end();
    for (const listener of this.closeListeners.splice(0)) listener();
  }

  private write(chunk: string): void {
    if (this.open) this.res.write(chunk);
  }
}
