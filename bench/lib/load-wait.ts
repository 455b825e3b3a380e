import { setTimeout as delay } from 'node:timers/promises';
import { progress } from './log';
import { currentLoad } from './machine';

const POLL_SECONDS = 60;

/**
 * Waits (polling every minute) while the 1-minute load average is above
 * `maxLoad`, for at most `waitMinutes`. Returns the seconds waited.
 */
export async function waitForQuietMachine(maxLoad: number, waitMinutes: number): Promise<number> {
  if (maxLoad <= 0) return 0;
  const started = Date.now();
  const deadline = started + waitMinutes * 60_000;
  for (;;) {
    const [oneMinute] = currentLoad();
    if (oneMinute <= maxLoad) break;
    if (Date.now() + POLL_SECONDS * 1000 > deadline) {
      progress(
        `load average ${oneMinute} still above ${maxLoad} after ${waitMinutes} min; measuring anyway`,
      );
      break;
    }
    progress(`load average ${oneMinute} > ${maxLoad}; waiting ${POLL_SECONDS} s`);
    await delay(POLL_SECONDS * 1000);
  }
  return Math.round((Date.now() - started) / 1000);
}
