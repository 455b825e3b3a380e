import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { hostname } from 'node:os';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { AlertsConfig, GatewayConfig } from '../config/gateway-config';
import { GATEWAY_VERSION } from '../lifecycle/server-info';
import { AlertCheck, AlertName, CheckOutcome } from './alert-observation';
import { alertPayload, GatewayIdentity } from './alert-payload';
import { AlertNotice, AlertStateTracker } from './alert-state.tracker';
import { WebhookTarget } from './alert-webhook.resolver';
import { ALERT_LIMITS, ALERT_WEBHOOKS } from './alerts.constants';
import { AlertsMetrics } from './alerts.metrics';
import { withDeadline } from '../common/with-deadline';
import { reasonOf } from './check-failure.reason';
import { BudgetCheck } from './checks/budget.check';
import { ErrorRateCheck } from './checks/error-rate.check';
import { LedgerUnwritableCheck } from './checks/ledger-unwritable.check';
import { RedisDownCheck } from './checks/redis-down.check';
import { UpstreamDownCheck } from './checks/upstream-down.check';
import { NotificationRateLimiter } from './notification-rate.limiter';
import { WebhookDispatcher } from './webhook.dispatcher';

/**
 * Runs the alert rules every `alerts.evaluation_interval_seconds`, one
 * evaluation at a time (the next is scheduled when one ends), each check
 * under a deadline; hands the notices the tracker and the rate limit let
 * through to the webhooks, and keeps mcp_alerts_firing current.
 */
@Injectable()
export class AlertsEvaluator implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Alerts');
  private readonly config: AlertsConfig;
  private readonly checks: AlertCheck[];
  private readonly tracker: AlertStateTracker;
  private readonly limiter: NotificationRateLimiter;
  private readonly dispatcher: WebhookDispatcher;
  private readonly gateway: GatewayIdentity;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Inject(ALERT_WEBHOOKS) private readonly webhooks: WebhookTarget[],
    private readonly metrics: AlertsMetrics,
    ledger: LedgerUnwritableCheck,
    redis: RedisDownCheck,
    errorRate: ErrorRateCheck,
    upstreams: UpstreamDownCheck,
    budget: BudgetCheck,
  ) {
    this.config = config.alerts;
    this.checks = [ledger, redis, errorRate, upstreams, budget].filter((check) => check.active);
    this.tracker = new AlertStateTracker(this.config.repeat_interval_seconds * 1000);
    this.limiter = new NotificationRateLimiter(this.config.max_notifications_per_minute);
    this.gateway = {
      instance: `${hostname()}:${process.pid}`,
      hostname: hostname(),
      pid: process.pid,
      version: GATEWAY_VERSION,
    };
    this.dispatcher = new WebhookDispatcher(webhooks, metrics, {
      maxQueued: ALERT_LIMITS.maxQueuedPerWebhook,
      retryBaseMs: ALERT_LIMITS.retryBaseMs,
      retryMaxMs: ALERT_LIMITS.retryMaxMs,
      userAgent: `owlclaw-mcp-gateway/${GATEWAY_VERSION} (alerts)`,
    });
  }

  onApplicationBootstrap(): void {
    if (!this.config.enabled) {
      if (this.config.webhooks.length > 0) {
        this.logger.warn({
          msg: 'alerts.webhooks is set but alerts.enabled is false: no alert is evaluated',
        });
      }
      return;
    }
    for (const check of this.checks) this.metrics.firing(check.alert, 0);
    this.logger.log({
      msg:
        this.webhooks.length > 0
          ? 'alerts on'
          : 'alerts on without webhooks: logged and exported as mcp_alerts_firing only',
      rules: this.checks.map((check) => check.alert),
      webhooks: this.webhooks.map((webhook) => webhook.label),
      evaluation_interval_seconds: this.config.evaluation_interval_seconds,
    });
    this.schedule();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.dispatcher.close();
  }

  private schedule(): void {
    this.timer = setTimeout(() => void this.tick(), this.config.evaluation_interval_seconds * 1000);
    // Alerts never keep a stopping process alive.
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      await this.evaluate(Date.now());
    } catch (err) {
      this.logger.error({
        msg: 'alert evaluation failed',
        error: reasonOf(err, ALERT_LIMITS.maxReasonChars),
      });
    } finally {
      if (!this.stopped) this.schedule();
    }
  }

  private async evaluate(now: number): Promise<void> {
    const outcomes = new Map<AlertName, CheckOutcome>();
    await Promise.all(
      this.checks.map(async (check) => outcomes.set(check.alert, await this.outcomeOf(check, now))),
    );
    if (this.stopped) return;
    let deferred = 0;
    const notices = this.tracker.evaluate(outcomes, now, () => {
      const allowed = this.limiter.tryTake(now);
      if (!allowed) deferred++;
      return allowed;
    });
    for (const notice of notices) {
      this.announce(notice);
      this.dispatcher.enqueue(alertPayload(notice, this.gateway));
    }
    if (deferred > 0) {
      this.logger.warn({
        msg: 'alert notifications deferred to the next evaluation: alerts.max_notifications_per_minute reached',
        limit: this.config.max_notifications_per_minute,
        deferred,
      });
    }
    for (const check of this.checks)
      this.metrics.firing(check.alert, this.tracker.firing(check.alert));
    this.metrics.evaluated();
  }

  /** A check that fails or overruns its deadline cannot tell: its alerts stay as they were. */
  private async outcomeOf(check: AlertCheck, now: number): Promise<CheckOutcome> {
    try {
      return await withDeadline(
        () => check.evaluate(now),
        ALERT_LIMITS.checkTimeoutMs,
        check.alert,
      );
    } catch (err) {
      if (!this.stopped) {
        this.logger.warn({
          msg: 'alert check failed; its alerts stay as they were',
          alert: check.alert,
          error: reasonOf(err, ALERT_LIMITS.maxReasonChars),
        });
      }
      return 'unknown';
    }
  }

  /** Every notice is logged too: with no webhook (or a dead one) the log still tells. */
  private announce(notice: AlertNotice): void {
    const { alert, severity, labels, summary } = notice.observation;
    if (notice.status === 'firing') {
      this.logger.warn({ msg: 'alert firing', alert, severity, labels, summary });
    } else {
      this.logger.log({ msg: 'alert resolved', alert, severity, labels });
    }
  }
}
