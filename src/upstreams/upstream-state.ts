/**
 * Where an upstream stands, for the admin API, readiness and metrics:
 * `idle` (no child or session: never used, or reclaimed while healthy),
 * `connected`, `degraded` (a stdio child crashed and is being restarted),
 * `down` (given up on after too many failures, or an HTTP upstream that failed to connect).
 */
export const UPSTREAM_STATES = ['idle', 'connected', 'degraded', 'down'] as const;
export type UpstreamState = (typeof UPSTREAM_STATES)[number];

export interface UpstreamStatus {
  state: UpstreamState;
  /** When the server entered `state`. */
  since: Date;
  /** The last failure (a crash, a failed start), kept across recoveries. */
  last_error?: string;
  /** Restarts of a crashed stdio child that were scheduled since the gateway started. */
  restarts: number;
}
