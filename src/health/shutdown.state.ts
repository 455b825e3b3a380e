import { Injectable, OnApplicationShutdown, BeforeApplicationShutdown } from '@nestjs/common';

/** Flips readiness off as soon as shutdown starts, so the load balancer stops sending traffic. */
@Injectable()
export class ShutdownState implements BeforeApplicationShutdown, OnApplicationShutdown {
  draining = false;

  /** Called at the stop signal, before the drain delay: readiness fails while traffic is still served. */
  startDraining(): void {
    this.draining = true;
  }

  beforeApplicationShutdown(): void {
    this.draining = true;
  }

  onApplicationShutdown(): void {
    this.draining = true;
  }
}
