import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { GovernanceRedis } from '../governance/redis/governance-redis';

/** `changed`: status or payload moved (notifications); `answered`, `cancel`: news for the runner. */
export type TaskEventKind = 'changed' | 'answered' | 'cancel';

export interface TaskEvent {
  taskId: string;
  kind: TaskEventKind;
}

type Listener = (event: TaskEvent) => void;

/**
 * News about tasks for whoever waits on them in this process (the runner of
 * a task, the listening streams) and, in scale-out mode, in every other
 * replica through one Redis channel. Events only wake: what changed is read
 * from the store, and runners re-read it every second anyway, so an event
 * lost while Redis reconnects costs a second, not a task.
 */
@Injectable()
export class TaskEvents implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(TaskEvents.name);
  private readonly listeners = new Set<Listener>();
  private readonly origin = randomUUID();
  private readonly channel: string;
  private subscriber?: Redis;

  constructor(private readonly redis: GovernanceRedis) {
    this.channel = `${redis.prefix}tasks:events`;
  }

  onModuleInit(): void {
    this.subscriber = this.redis.subscribe(this.channel, (text) => this.received(text));
  }

  onApplicationShutdown(): void {
    this.subscriber?.disconnect();
  }

  publish(event: TaskEvent): void {
    this.deliver(event);
    this.redis.client
      ?.publish(this.channel, JSON.stringify({ ...event, origin: this.origin }))
      .catch((err: unknown) =>
        this.logger.debug({ msg: 'task event not published', error: String(err) }),
      );
  }

  /** Returns the unsubscribe function. */
  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private received(text: string): void {
    let event: (TaskEvent & { origin?: string }) | undefined;
    try {
      event = JSON.parse(text) as TaskEvent & { origin?: string };
    } catch {
      return;
    }
    if (event.origin === this.origin || typeof event.taskId !== 'string') return;
    this.deliver({ taskId: event.taskId, kind: event.kind });
  }

  private deliver(event: TaskEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.logger.warn({ msg: 'task event listener failed', error: String(err) });
      }
    }
  }
}
