import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorChain } from '../upstreams/error-chain';
import { AlertPayload } from './alert-payload';
import { WebhookTarget } from './alert-webhook.resolver';
import { AlertsMetrics } from './alerts.metrics';
import { retryDelayMs } from './retry-delay';

export interface DispatchOptions {
  /** Notifications waiting per webhook; one more drops the oldest. */
  maxQueued: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Sent as User-Agent unless the webhook's headers set one. */
  userAgent: string;
}

interface WebhookQueue {
  target: WebhookTarget;
  pending: AlertPayload[];
  /** The notification being delivered (retries included), if any. */
  current?: AlertPayload;
}

type Attempt = { ok: true } | { ok: false; retryable: boolean; problem: string };

/**
 * Posts alert notifications to the webhooks. Each webhook has its own bounded
 * queue, delivered in order one notification at a time (a firing notice
 * before its resolved one), with a timeout per attempt and retries with
 * backoff; a slow or dead webhook delays only its own queue. `enqueue` never
 * waits, so nothing that serves requests can be held up by a receiver.
 */
export class WebhookDispatcher {
  private readonly logger = new Logger('Alerts');
  private readonly queues: WebhookQueue[];
  private readonly closing = new AbortController();

  constructor(
    targets: readonly WebhookTarget[],
    private readonly metrics: AlertsMetrics,
    private readonly options: DispatchOptions,
  ) {
    this.queues = targets.map((target) => ({ target, pending: [] }));
  }

  enqueue(payload: AlertPayload): void {
    if (this.closing.signal.aborted) return;
    for (const queue of this.queues) {
      if (queue.pending.length >= this.options.maxQueued) {
        const dropped = queue.pending.shift()!;
        this.metrics.notification('dropped');
        this.logger.warn({
          msg: 'alert notification dropped: the webhook queue is full',
          webhook: queue.target.label,
          alert: dropped.alert,
          status: dropped.status,
          limit: this.options.maxQueued,
        });
      }
      queue.pending.push(payload);
      if (!queue.current) void this.drain(queue);
    }
  }

  /** Notifications not delivered yet (being delivered included), over all webhooks. */
  get backlog(): number {
    return this.queues.reduce(
      (sum, queue) => sum + queue.pending.length + (queue.current ? 1 : 0),
      0,
    );
  }

  /** Abandons what is queued or in flight (shutdown must not wait for receivers). */
  close(): void {
    const abandoned = this.backlog;
    this.closing.abort();
    for (const queue of this.queues) queue.pending.length = 0;
    if (abandoned > 0) {
      this.logger.warn({ msg: 'alert notifications abandoned at shutdown', count: abandoned });
    }
  }

  private async drain(queue: WebhookQueue): Promise<void> {
    for (;;) {
      const next = this.closing.signal.aborted ? undefined : queue.pending.shift();
      queue.current = next;
      if (!next) return;
      await this.deliver(queue.target, next);
    }
  }

  private async deliver(target: WebhookTarget, payload: AlertPayload): Promise<void> {
    const body = JSON.stringify(payload);
    let last: Attempt = { ok: false, retryable: false, problem: 'not attempted' };
    let attempts = 0;
    while (attempts <= target.maxRetries) {
      if (attempts > 0) {
        const delay = retryDelayMs(attempts, this.options.retryBaseMs, this.options.retryMaxMs);
        const waited = await sleep(delay, true, { signal: this.closing.signal, ref: false }).catch(
          () => false,
        );
        if (!waited) return;
      }
      attempts++;
      last = await this.attempt(target, body);
      if (this.closing.signal.aborted) return;
      if (last.ok) {
        this.metrics.notification('sent');
        this.logger.debug({ msg: 'alert notification sent', webhook: target.label, attempts });
        return;
      }
      if (!last.retryable) break;
    }
    this.metrics.notification('failed');
    this.logger.warn({
      msg: 'alert notification failed',
      webhook: target.label,
      alert: payload.alert,
      status: payload.status,
      attempts,
      error: last.ok ? undefined : last.problem,
    });
  }

  private async attempt(target: WebhookTarget, body: string): Promise<Attempt> {
    const headers = new Headers(target.headers);
    headers.set('content-type', 'application/json');
    if (!headers.has('user-agent')) headers.set('user-agent', this.options.userAgent);
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers,
        body,
        // A redirect could carry the headers (secrets) to another host: it counts as a failure.
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(target.timeoutMs), this.closing.signal]),
      });
      // The answer's body says nothing we use; cancelling it frees the connection.
      await response.body?.cancel().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return { ok: true };
      const redirect = response.status >= 300 && response.status < 400;
      return {
        ok: false,
        retryable: response.status === 408 || response.status === 429 || response.status >= 500,
        problem: `HTTP ${response.status}${redirect ? ' (redirects are not followed)' : ''}`,
      };
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      return {
        ok: false,
        retryable: true,
        problem: timedOut
          ? `no answer within ${target.timeoutMs} ms`
          : errorChain(err).slice(0, 200),
      };
    }
  }
}
