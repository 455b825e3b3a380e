import { Injectable } from '@nestjs/common';

/**
 * How many requests the dispatcher is running right now, over every session
 * and transport. Batching steps ask it whether waiting for the end of the
 * event-loop turn could gather anything: with one request in flight nothing
 * else can join, and the wait would only add latency.
 */
@Injectable()
export class InflightRequests {
  private running = 0;

  get count(): number {
    return this.running;
  }

  begin(): void {
    this.running++;
  }

  end(): void {
    this.running--;
  }
}
