import { Injectable, OnApplicationShutdown, BeforeApplicationShutdown } from '@nestjs/common';

/** Flips readiness off as soon as shutdown starts, so the load balancer stops sending traffic. */
@Injectable()
export class ShutdownState implements BeforeApplicationShutdown, OnApplicationShutdown {
  draining = false;

  beforeApplicationShutdown(): void {
    this.draining = true;
  }

  onApplicationShutdown(): void {
    this.draining = true;
  }
}
