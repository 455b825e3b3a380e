import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter, Gauge } from 'prom-client';
import { AlertName } from './alert-observation';
import {
  MCP_ALERT_EVALUATIONS_TOTAL,
  MCP_ALERT_NOTIFICATIONS_TOTAL,
  MCP_ALERTS_FIRING,
  NOTIFICATION_OUTCOMES,
  NotificationOutcome,
} from './alerts-metrics.constants';

/** The alert metrics, behind one small API (label sets bounded by the rule names and outcomes). */
@Injectable()
export class AlertsMetrics {
  constructor(
    @InjectMetric(MCP_ALERTS_FIRING) private readonly firingGauge: Gauge<'alert'>,
    @InjectMetric(MCP_ALERT_NOTIFICATIONS_TOTAL)
    private readonly notifications: Counter<'outcome'>,
    @InjectMetric(MCP_ALERT_EVALUATIONS_TOTAL) private readonly evaluations: Counter,
  ) {
    // Every outcome is scraped from the start, so a rate() over it never starts from nothing.
    for (const outcome of NOTIFICATION_OUTCOMES) this.notifications.inc({ outcome }, 0);
  }

  firing(alert: AlertName, instances: number): void {
    this.firingGauge.set({ alert }, instances);
  }

  notification(outcome: NotificationOutcome): void {
    this.notifications.inc({ outcome });
  }

  evaluated(): void {
    this.evaluations.inc();
  }
}
