import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { withDeadline } from '../common/with-deadline';
import { HEALTH_CHECK_TIMEOUT_MS } from './health.constants';

type Session = ReturnType<HealthIndicatorService['check']>;

/**
 * One dependency's I/O check, terminus style: `up` with its latency, or
 * `down` with its latency and the reason, after HEALTH_CHECK_TIMEOUT_MS at
 * most, so one hung dependency cannot hang the probe that lists the others.
 */
export async function timedCheck(
  session: Session,
  check: () => unknown,
  details: Record<string, unknown> = {},
): Promise<HealthIndicatorResult> {
  const started = performance.now();
  try {
    await withDeadline(check, HEALTH_CHECK_TIMEOUT_MS);
    return session.up({ ...details, latencyMs: elapsedMs(started) });
  } catch (err) {
    return session.down({
      ...details,
      latencyMs: elapsedMs(started),
      reason: err instanceof Error ? err.message : String(err),
    });
  }
}

export function elapsedMs(started: number): number {
  return Math.round(performance.now() - started);
}
