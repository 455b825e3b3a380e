import { Inject, Injectable, BeforeApplicationShutdown } from '@nestjs/common';
import { ServerResponse } from 'node:http';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { SseStream } from './sse-stream';

/** Opens SSE streams and knows which are open, so shutdown can end them all. */
@Injectable()
export class SseHub implements BeforeApplicationShutdown {
  private readonly streams = new Set<SseStream>();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  open(res: ServerResponse, headers?: Record<string, string>): SseStream {
    const stream = new SseStream(res, this.config.http.sse.keepalive_seconds * 1000, headers);
    this.streams.add(stream);
    stream.onClose(() => this.streams.delete(stream));
    return stream;
  }

  get openCount(): number {
    return this.streams.size;
  }

  /** Keep-alive timers still running, for leak checks. */
  get keepAliveTimers(): number {
    return [...this.streams].filter((stream) => stream.keepAliveActive).length;
  }

  /** Open streams would keep the HTTP server from closing, so they end first. */
  beforeApplicationShutdown(): void {
    for (const stream of [...this.streams]) stream.close();
  }
}
