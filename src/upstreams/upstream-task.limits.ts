/**
 * Bounds on following an upstream's task: its pollInterval is a hint the
 * gateway keeps within reason, so a hostile upstream can neither make the
 * gateway poll in a busy loop nor hold a finished call for an hour.
 */
export const UPSTREAM_TASK_LIMITS = {
  /** Wait between two tasks/get of a task whose upstream gives no pollInterval (the SDK's own default). */
  defaultPollMs: 1_000,
  /** Shortest wait between two tasks/get of one task. */
  minPollMs: 100,
  /** Longest wait between two tasks/get of one task, whatever pollInterval says. */
  maxPollMs: 5_000,
  /** How long a tasks/cancel sent after the caller stopped may take before the gateway gives up on it. */
  cancelTimeoutMs: 5_000,
  /** The ttl asked for beyond the call's own limit, so the result is still there when it is fetched. */
  ttlGraceMs: 60_000,
  /** How far a status change moves the relayed progress, below any whole step an upstream reports. */
  statusStep: 0.001,
  /** Characters of a relayed status or progress message; the rest is cut with an ellipsis. */
  maxMessageChars: 1_024,
} as const;
