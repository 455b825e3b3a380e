import { keyLabel, Problem } from './config-problem';
import { DRAIN_DELAY_KEY } from './config-drain.default';
import { GatewayConfig } from './gateway-config';

/**
 * The HTTP drain delay counts against the shutdown deadline (both start at the
 * signal), so a delay as long as the deadline would cut every stop short.
 */
export function drainConfigProblems(
  config: Pick<GatewayConfig, 'transport' | 'http' | 'limits'>,
  originOf: (keyPath: readonly string[]) => string | undefined,
): Problem[] {
  // Only the HTTP transport drains; a stdio gateway ignores the delay.
  if (config.transport !== 'http') return [];
  const delay = config.http.drain_delay_seconds;
  const deadline = config.limits.shutdown_deadline_seconds;
  if (delay < deadline) return [];
  return [
    {
      subject: keyLabel(DRAIN_DELAY_KEY),
      message: `must be less than ${keyLabel(['limits', 'shutdown_deadline_seconds'])} (${deadline}): the deadline counts from the same signal`,
      origin: originOf(DRAIN_DELAY_KEY),
    },
  ];
}
