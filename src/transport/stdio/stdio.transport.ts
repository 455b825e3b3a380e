import { Inject, Injectable, Logger } from '@nestjs/common';
import { Readable, Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { ErrorCode } from '../../errors/error-code';
import { ClientIdentityResolver } from '../../governance/identity/client-identity.resolver';
import { JsonRpcDispatcher } from '../../json-rpc/json-rpc.dispatcher';
import { failure } from '../../json-rpc/json-rpc.responses';
import { McpSession } from '../../session/mcp-session';
import { SessionRegistry } from '../../session/session.registry';
import { LineSplitter } from './line-splitter';
import { StdoutSink } from './stdout.sink';

/** Time left after the grace period for aborted handlers to write their last answers. */
const ABORT_SETTLE_MS = 300;

/**
 * MCP over stdio: one JSON message per line in, one per line out. Lines are
 * dispatched concurrently; on EOF or stop() the transport stops reading,
 * lets in-flight requests finish within the grace period, then resolves.
 */
@Injectable()
export class StdioTransport {
  private readonly logger = new Logger(StdioTransport.name);
  private readonly inflight = new Set<Promise<void>>();
  private input?: Readable;
  private session?: McpSession;
  private sink?: StdoutSink;
  private finished?: Promise<void>;
  private stopRequested?: () => void;

  constructor(
    private readonly dispatcher: JsonRpcDispatcher,
    private readonly sessions: SessionRegistry,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly identity: ClientIdentityResolver,
  ) {}

  /**
   * Serves until the input ends or stop() is called; resolves once drained.
   * Rejects before reading anything when the process has no valid identity.
   */
  run(
    input: Readable = process.stdin,
    output: Writable = process.stdout,
    env = process.env,
  ): Promise<void> {
    if (this.finished) return this.finished;
    let clientId: string;
    try {
      clientId = this.identity.identifyProcess(env);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    this.input = input;
    const session = this.sessions.create('stdio', clientId);
    this.session = session;
    const sink = new StdoutSink(output);
    this.sink = sink;
    session.attachStandalone(sink);
    const splitter = new LineSplitter(
      this.config.stdio.max_line_bytes,
      (line) => this.track(this.handleLine(line, session, sink)),
      (bytes) => {
        // Reported when the limit is crossed; the rest of the line is dropped up to its newline.
        this.logger.warn({ msg: 'oversize stdio message discarded', bytesSoFar: bytes });
        const refusal = failure(
          null,
          ErrorCode.ParseError,
          `Parse error: message exceeds stdio.max_line_bytes (${this.config.stdio.max_line_bytes}) and was discarded`,
          { retryable: false },
        );
        // Refused like any frame that cannot be parsed: a trace id, and its request line.
        sink.send(this.dispatcher.refuse(refusal, undefined, session));
      },
    );
    const ended = new Promise<void>((resolve) => {
      this.stopRequested = resolve;
      input.on('data', (chunk: Buffer | string) =>
        splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk),
      );
      input.once('end', () => {
        splitter.end();
        resolve();
      });
      input.once('error', (err) => {
        this.logger.error({ msg: 'stdin error', error: err.message });
        resolve();
      });
    });
    this.logger.log({ msg: 'stdio transport ready', clientId: session.clientId });
    this.finished = ended.then(() => this.drain());
    return this.finished;
  }

  /** SIGTERM: stop reading and drain as on EOF. */
  stop(): void {
    this.input?.pause();
    this.stopRequested?.();
  }

  private async handleLine(line: Buffer, session: McpSession, sink: StdoutSink): Promise<void> {
    const response = await this.dispatcher.dispatchFrame(line, { session, sink });
    if (response !== undefined) sink.send(response);
  }

  private track(work: Promise<void>): void {
    // One settled handler for both outcomes: a line costs one promise more, not two.
    const tracked: Promise<void> = work.then(
      () => void this.inflight.delete(tracked),
      (err: unknown) => {
        this.logger.error({ msg: 'stdio dispatch failed', error: String(err) });
        this.inflight.delete(tracked);
      },
    );
    this.inflight.add(tracked);
  }

  private async drain(): Promise<void> {
    this.input?.removeAllListeners('data');
    const graceMs = this.config.stdio.shutdown_grace_seconds * 1000;
    const pending = this.inflight.size;
    this.logger.log({ msg: 'stdio input closed, draining', inflight: pending });
    const settled = Promise.allSettled([...this.inflight]).then(() => true);
    const inTime = await Promise.race([
      settled,
      delay(Math.max(graceMs - ABORT_SETTLE_MS * 2, 0), false, { ref: false }),
    ]);
    if (!inTime && this.session) {
      this.logger.warn({
        msg: 'grace period over, aborting in-flight requests',
        inflight: this.inflight.size,
      });
      // Abort handlers so that they answer with an error instead of being cut off silently.
      this.session.abortInflight('server shutting down');
      await Promise.race([
        Promise.allSettled([...this.inflight]),
        delay(ABORT_SETTLE_MS, undefined, { ref: false }),
      ]);
    }
    if (this.session) this.sessions.remove(this.session.id);
    this.sink?.flush();
  }
}
