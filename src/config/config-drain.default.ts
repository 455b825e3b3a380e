import { isLoopbackBind } from '../common/loopback-bind';
import { HttpConfig } from './gateway-config';

export const DRAIN_DELAY_KEY = ['http', 'drain_delay_seconds'] as const;

/**
 * The drain delay the gateway uses: a value set in the file, the environment
 * or the flags wins; unset, a loopback-bound gateway gets none (no load
 * balancer routes to it, so Ctrl-C need not wait) and any other keeps the
 * schema's default.
 */
export function effectiveDrainDelaySeconds(
  http: Pick<HttpConfig, 'host' | 'drain_delay_seconds'>,
  setExplicitly: boolean,
): number {
  if (setExplicitly || !isLoopbackBind(http.host)) return http.drain_delay_seconds;
  return 0;
}
