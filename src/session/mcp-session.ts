import { RequestAbort } from '../common/request-abort';
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { RequestCancelledError } from '../errors/request-cancelled.error';
import {
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcParams,
  JsonRpcResponse,
  isFailure,
} from '../json-rpc/json-rpc.types';
import { LoggingLevel } from './logging-level';
import { MessageSink } from './message-sink';
import { NO_PEERS, SessionPeers } from './session-peers';

export type SessionTransport = 'stdio' | 'streamable-http' | 'legacy-sse';

export interface ClientInfo {
  name: string;
  version: string;
}

interface PendingOutbound {
  resolve(result: unknown): void;
  reject(error: Error): void;
  cleanup(): void;
}

/**
 * One MCP session: negotiated state, in-flight requests (for cancellation),
 * server-to-client requests awaiting answers, and the standalone outbound
 * stream. Pure state: it knows sinks, never sockets or stdout.
 */
export class McpSession {
  readonly id: string;
  readonly createdAt = Date.now();
  lastActivity = Date.now();
  protocolVersion?: string;
  initialized = false;
  closed = false;
  clientInfo?: ClientInfo;
  clientCapabilities: Record<string, unknown> = {};
  logLevel?: LoggingLevel;
  /** Resource URIs the client subscribed to, as it spelled them (notifications repeat its spelling). */
  readonly subscriptions = new Set<string>();
  /** Settles when the last initialize request has been answered. */
  handshake: Promise<void> = Promise.resolve();

  private readonly inflight = new Map<string, RequestAbort>();
  private readonly pending = new Map<JsonRpcId, PendingOutbound>();
  private readonly closeListeners: Array<() => void> = [];
  private standalone?: MessageSink;
  private nextOutboundId = 0;

  constructor(
    readonly transport: SessionTransport,
    readonly clientId: string,
    /** Who opened it (see sessionOwnerOf): the client, plus issuer and subject for OAuth. */
    readonly owner: string = clientId,
    /** The other replicas serving this session; none on a single replica. */
    private readonly peers: SessionPeers = NO_PEERS,
    /** Set when this is a replica's copy of a session opened elsewhere. */
    id: string = randomUUID(),
  ) {
    this.id = id;
  }

  touch(): void {
    this.lastActivity = Date.now();
  }

  get busy(): boolean {
    return this.inflight.size > 0 || this.pending.size > 0 || this.standalone?.open === true;
  }

  get inflightCount(): number {
    return this.inflight.size;
  }

  hasStandaloneStream(): boolean {
    return this.standalone?.open === true;
  }

  attachStandalone(sink: MessageSink): void {
    this.standalone = sink;
  }

  detachStandalone(sink: MessageSink): void {
    if (this.standalone === sink) this.standalone = undefined;
  }

  /** Registers a request so that notifications/cancelled can abort it. */
  beginRequest(id: JsonRpcId): RequestAbort {
    const abort = new RequestAbort();
    this.inflight.set(requestKey(id), abort);
    return abort;
  }

  endRequest(id: JsonRpcId): void {
    this.inflight.delete(requestKey(id));
  }

  /** Cancels the request here, or asks the other replicas to when it does not run here. */
  cancelRequest(id: JsonRpcId, reason: string): boolean {
    return this.cancelLocalRequest(id, reason) || this.peers.forwardCancel(this.id, id, reason);
  }

  cancelLocalRequest(id: JsonRpcId, reason: string): boolean {
    const abort = this.inflight.get(requestKey(id));
    if (!abort) return false;
    abort.abort(new RequestCancelledError(reason));
    return true;
  }

  /** Aborts every in-flight request with an error they answer with (shutdown, not cancellation). */
  abortInflight(reason: string): void {
    for (const abort of this.inflight.values()) {
      abort.abort(new GatewayError(ErrorCode.InternalError, reason, { retryable: true }));
    }
  }

  /** Writes a message (a response, for transports that answer on the stream) to the standalone stream. */
  sendOnStream(message: JsonRpcMessage | JsonRpcMessage[]): boolean {
    if (this.closed) return false;
    if (!this.standalone?.open) return this.peers.deliver(this.id, message);
    this.standalone.send(message);
    return true;
  }

  /** Writes to the standalone stream when this replica holds it; false otherwise. */
  sendOnLocalStream(message: JsonRpcMessage | JsonRpcMessage[]): boolean {
    if (!this.standalone?.open || this.closed) return false;
    this.standalone.send(message);
    return true;
  }

  /** Sends through `via` (the request's own stream) when open, else the standalone stream. */
  notify(method: string, params?: JsonRpcParams, via?: MessageSink): boolean {
    if (this.closed) return false;
    const message: JsonRpcMessage =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    const sink = via?.open ? via : this.standalone;
    if (!sink?.open) return this.peers.deliver(this.id, message);
    sink.send(message);
    return true;
  }

  /** A server-to-client request (sampling, elicitation, roots); resolves with the client's result. */
  request(
    method: string,
    params: JsonRpcParams | undefined,
    options: { via?: MessageSink; signal?: AbortSignal; timeoutMs: number },
  ): Promise<unknown> {
    const sink = options.via?.open ? options.via : this.standalone;
    const send = (message: JsonRpcMessage) =>
      sink?.open ? (sink.send(message), true) : this.peers.deliver(this.id, message);
    const id = `${this.peers.requestIdPrefix}${++this.nextOutboundId}`;
    const message: JsonRpcMessage =
      params === undefined
        ? { jsonrpc: '2.0' as const, id, method }
        : { jsonrpc: '2.0' as const, id, method, params };
    if (this.closed || (!sink?.open && !send(message))) {
      return Promise.reject(
        new GatewayError(
          ErrorCode.ExecutionError,
          `No open stream to send ${method} to the client`,
        ),
      );
    }
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(
        () => settle(() => reject(new GatewayError(ErrorCode.Timeout, `${method} timed out`))),
        options.timeoutMs,
      );
      const onAbort = () =>
        settle(() => reject(new GatewayError(ErrorCode.ExecutionError, `${method} aborted`)));
      const cleanup = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      const settle = (fn: () => void) => {
        cleanup();
        fn();
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (r) => settle(() => resolve(r)),
        reject: (e) => settle(() => reject(e)),
        cleanup,
      });
      // Sent above when another replica holds the stream (the answer may come back anywhere).
      if (sink?.open) sink.send(message);
    });
  }

  /** Routes a client's response to the server request waiting for it; false when none is. */
  resolveResponse(response: JsonRpcResponse): boolean {
    const waiting = response.id === null ? undefined : this.pending.get(response.id);
    if (!waiting)
      return this.forwardable(response) && this.peers.forwardResponse(this.id, response);
    return this.settleResponse(waiting, response);
  }

  /** Settles this replica's request the answer is for; false when none waits for it here. */
  resolveLocalResponse(response: JsonRpcResponse): boolean {
    const waiting = response.id === null ? undefined : this.pending.get(response.id);
    return waiting !== undefined && this.settleResponse(waiting, response);
  }

  /** Only answers to server requests of another replica (ids with another prefix) travel. */
  private forwardable(response: JsonRpcResponse): boolean {
    const { id } = response;
    return (
      typeof id === 'string' && id.startsWith('srv-') && !id.startsWith(this.peers.requestIdPrefix)
    );
  }

  private settleResponse(waiting: PendingOutbound, response: JsonRpcResponse): boolean {
    if (isFailure(response)) {
      waiting.reject(
        new GatewayError(
          ErrorCode.ExecutionError,
          `Client answered with error: ${response.error.message}`,
          {
            data: { clientError: response.error },
          },
        ),
      );
    } else {
      waiting.resolve(response.result);
    }
    return true;
  }

  /** Returns the function that removes the listener again (streams come and go). */
  onClose(listener: () => void): () => void {
    this.closeListeners.push(listener);
    return () => {
      const index = this.closeListeners.indexOf(listener);
      if (index !== -1) this.closeListeners.splice(index, 1);
    };
  }

  get closeListenerCount(): number {
    return this.closeListeners.length;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.abortInflight('Session closed');
    this.inflight.clear();
    for (const waiting of [...this.pending.values()]) {
      waiting.reject(new GatewayError(ErrorCode.ExecutionError, 'Session closed'));
    }
    this.standalone = undefined;
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}

function requestKey(id: JsonRpcId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}
