import { Writable } from 'node:stream';
import { JsonRpcMessage } from '../../json-rpc/json-rpc.types';
import { MessageSink } from '../../session/message-sink';

/** Newline-delimited JSON onto stdout: the only thing that is ever written there. */
export class StdoutSink implements MessageSink {
  private closed = false;

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
    this.output.write(`${JSON.stringify(message)}\n`);
  }
}
