import { Writable } from 'node:stream';
import { serializeOutbound } from '../../json-rpc/json-rpc.serializer';
import { JsonRpcMessage } from '../../json-rpc/json-rpc.types';
import { MessageSink } from '../../session/message-sink';

/**
 * Newline-delimited JSON onto stdout: the only thing that is ever written there.
 * Messages sent in one turn of the event loop go out in one write (stdout on a
 * pipe is a blocking syscall per write); order is kept, and a lone answer
 * waits only for the end of the current turn.
 */
export class StdoutSink implements MessageSink {
  private closed = false;
  private pending: string[] = [];
  private scheduled?: NodeJS.Immediate;

  constructor(private readonly output: Writable) {
    output.on('error', () => {
      // EPIPE: the client went away; further writes are pointless, not fatal.
      this.closed = true;
    });
  }

  get open(): boolean {
    return !this.closed && !this.output.destroyed && this.output.writable;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (!this.open) return;
    const text = serializeOutbound(message);
    if (text === undefined) return;
    this.pending.push(`${text}\n`);
    this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Writes what is queued now (the transport calls it before it stops). */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.pending.length === 0) return;
    const chunk = this.pending.length === 1 ? this.pending[0] : this.pending.join('');
    this.pending = [];
    if (this.open) this.output.write(chunk);
  }
}
