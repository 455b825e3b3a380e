/** Bounds of the alert evaluation and delivery; docs/deployment.md ("Alerts") names each one. */
export const ALERT_LIMITS = {
  /** A check that has not answered by then leaves its alerts as they were (logged). */
  checkTimeoutMs: 5_000,
  /** Instances one rule may have firing (upstreams, clients); the worst ones are kept. */
  maxFiringPerRule: 50,
  /** Notifications waiting for one webhook; past this the oldest is dropped (counted, logged). */
  maxQueuedPerWebhook: 100,
  /** Characters of a summary, and of an error message quoted in one. */
  maxSummaryChars: 512,
  maxReasonChars: 200,
  /** Characters of a label value (client ids, server ids). */
  maxLabelChars: 128,
  /** Error-rate readings kept per window, so a long window with a short interval stays small. */
  maxRateReadings: 1024,
  /** First retry delay ceiling; it doubles per attempt up to retryMaxMs. */
  retryBaseMs: 500,
  retryMaxMs: 30_000,
} as const;

/** Token of the resolved webhook targets (alert-webhook.resolver.ts). */
export const ALERT_WEBHOOKS = Symbol('ALERT_WEBHOOKS');
