import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Server } from 'node:net';
import { Socket } from 'node:net';
import { ClientSlots } from '../../common/client-slots';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { LimitName } from '../../errors/limit-exceeded';
import { McpMetrics } from '../../observability/mcp.metrics';
import { TrailingThrottle } from '../../upstreams/trailing-throttle';

/** Refused connections are logged at most this often, as one line with their counts. */
const REFUSAL_LOG_GAP_MS = 10_000;

/**
 * Caps open TCP connections, per peer address and in total
 * (`limits.connections_*`), so idle or dribbling connections cannot take every
 * file descriptor. A connection over a cap is closed as soon as it is accepted,
 * before any byte is read; the total cap is Node's own (server.maxConnections).
 */
@Injectable()
export class ConnectionCaps {
  private readonly logger = new Logger(ConnectionCaps.name);
  private readonly slots: ClientSlots;
  private readonly refusedSinceLog = new Map<LimitName, number>();
  private readonly refusalLog = new TrailingThrottle(REFUSAL_LOG_GAP_MS, () => this.logRefusals());

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly metrics: McpMetrics,
  ) {
    // The total is enforced by Node before the connection event; only the per-address count is kept here.
    this.slots = new ClientSlots(config.limits.connections_per_address, Infinity);
  }

  /** Applies both caps to an HTTP or HTTPS server, before it listens. */
  install(server: Server): void {
    server.maxConnections = this.config.limits.connections_total;
    server.on('drop', () => this.refuse('connections_total'));
    // First in line, so a refused connection gets no HTTP parser.
    server.prependListener('connection', (socket: Socket) => this.admit(socket));
  }

  private admit(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    if (this.slots.acquire(address) !== undefined) {
      socket.destroy();
      this.refuse('connections_per_address');
      return;
    }
    socket.once('close', () => this.slots.release(address));
  }

  private refuse(limit: LimitName): void {
    this.metrics.recordLimitRefusal(limit);
    this.refusedSinceLog.set(limit, (this.refusedSinceLog.get(limit) ?? 0) + 1);
    this.refusalLog.call();
  }

  private logRefusals(): void {
    for (const [limit, refused] of this.refusedSinceLog) {
      this.logger.warn({
        msg: 'connections refused',
        limit: `limits.${limit}`,
        max: this.config.limits[limit],
        refused,
      });
    }
    this.refusedSinceLog.clear();
  }
}
