import { Inject, Injectable, BeforeApplicationShutdown, Logger } from '@nestjs/common';
import { ServerResponse } from 'node:http';
import { ClientSlots } from '../../common/client-slots';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { ErrorCode } from '../../errors/error-code';
import { limitExceeded, LimitName } from '../../errors/limit-exceeded';
import { McpMetrics } from '../../observability/mcp.metrics';
import { sendLimitRefusal } from './limit-refusal';
import { SseStream } from './sse-stream';

/**
 * Opens SSE streams and knows which are open, so shutdown can end them all.
 * The streams a client holds open (GET /mcp, GET /mcp/sse, legacy GET /sse)
 * are capped per client id and in total by `limits.sse_streams_*`.
 */
@Injectable()
export class SseHub implements BeforeApplicationShutdown {
  private readonly logger = new Logger(SseHub.name);
  private readonly streams = new Set<SseStream>();
  /** The streams of `openHeld`, which only a drain ends. */
  private readonly heldStreams = new Set<SseStream>();
  private readonly held: ClientSlots;
  /** Set once the drain ended the held streams: a stream opened later ends at once with it. */
  private drainRetryMs?: number;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly metrics: McpMetrics,
  ) {
    this.held = new ClientSlots(
      config.limits.sse_streams_per_client,
      config.limits.sse_streams_total,
    );
  }

  /**
   * A stream for the answer to one POST: not counted against the caps, since
   * it ends with its request (and the request belongs to a capped session).
   */
  open(res: ServerResponse, headers?: Record<string, string>): SseStream {
    const stream = new SseStream(res, this.config.http.sse.keepalive_seconds * 1000, headers);
    this.streams.add(stream);
    stream.onClose(() => this.streams.delete(stream));
    return stream;
  }

  /**
   * A stream `clientId` holds open until it goes away, or undefined with 429
   * (the client's cap) or 503 (the gateway's) already written; closing it frees its slot.
   */
  openHeld(
    clientId: string,
    res: ServerResponse,
    headers?: Record<string, string>,
  ): SseStream | undefined {
    const refusal = this.held.acquire(clientId);
    if (refusal !== undefined) {
      const limit: LimitName =
        refusal === 'per_client' ? 'sse_streams_per_client' : 'sse_streams_total';
      this.metrics.recordLimitRefusal(limit);
      this.logger.warn({ msg: 'SSE stream refused', clientId, limit: `limits.${limit}` });
      const error = limitExceeded(
        ErrorCode.InvalidRequest,
        limit,
        this.config.limits[limit],
        refusal === 'per_client'
          ? 'Another SSE stream for this client'
          : 'Another SSE stream on this gateway',
        { retryable: true },
      );
      sendLimitRefusal(res, error);
      return undefined;
    }
    const stream = this.open(res, headers);
    this.heldStreams.add(stream);
    stream.onClose(() => {
      this.heldStreams.delete(stream);
      this.held.release(clientId);
    });
    // Opened on a keep-alive connection after the drain: the client reconnects elsewhere.
    if (this.drainRetryMs !== undefined) stream.closeWithRetry(this.drainRetryMs);
    return stream;
  }

  get openCount(): number {
    return this.streams.size;
  }

  /** Streams counted against `limits.sse_streams_*`. */
  get heldCount(): number {
    return this.held.size;
  }

  /** Keep-alive timers still running, for leak checks. */
  get keepAliveTimers(): number {
    return [...this.streams].filter((stream) => stream.keepAliveActive).length;
  }

  /**
   * Ends every held stream (and any opened from now on) with a `retry:` hint,
   * so its client reconnects, to another replica. Streams answering one POST
   * are left to end with their call. Returns how many were ended.
   */
  endHeldStreams(retryMs: number): number {
    this.drainRetryMs = retryMs;
    const ending = [...this.heldStreams];
    for (const stream of ending) stream.closeWithRetry(retryMs);
    return ending.length;
  }

  /** Open streams would keep the HTTP server from closing, so they end first. */
  beforeApplicationShutdown(): void {
    for (const stream of [...this.streams]) stream.close();
  }
}
