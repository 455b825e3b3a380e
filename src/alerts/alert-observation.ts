/** The rules of `alerts.rules`, which are also the alert names receivers see. */
export const ALERT_NAMES = [
  'ledger_unwritable',
  'redis_down',
  'error_rate',
  'upstream_down',
  'budget',
] as const;
export type AlertName = (typeof ALERT_NAMES)[number];

export type AlertSeverity = 'critical' | 'warning';

/** One instance of a condition that holds now (one per upstream or client for those rules). */
export interface AlertObservation {
  alert: AlertName;
  severity: AlertSeverity;
  /** What tells instances of one alert apart (`server`, `client`); empty for single ones. */
  labels: Record<string, string>;
  summary: string;
}

/** What a check found: the instances firing now, or `unknown` when it could not tell. */
export type CheckOutcome = AlertObservation[] | 'unknown';

/** One rule's evaluation (src/alerts/checks/). */
export interface AlertCheck {
  readonly alert: AlertName;
  /** Configured on and meaningful here (redis_down needs state.driver redis, for instance). */
  readonly active: boolean;
  evaluate(now: number): Promise<CheckOutcome>;
}
