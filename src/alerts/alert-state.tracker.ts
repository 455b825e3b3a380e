import { AlertName, AlertObservation, CheckOutcome } from './alert-observation';

/** A notification the tracker decided to send; times are epoch ms. */
export interface AlertNotice {
  status: 'firing' | 'resolved';
  observation: AlertObservation;
  startsAt: number;
  endsAt?: number;
}

interface Tracked {
  observation: AlertObservation;
  startsAt: number;
  /** When its firing notice was last let through; undefined while none was. */
  firingSentAt?: number;
  /** When the condition cleared, while its resolved notice waits for the rate limit. */
  clearedAt?: number;
}

/**
 * Which alerts are firing and what receivers must hear about them: a new
 * alert once, again only after the repeat interval, and a resolved notice
 * once when its condition clears. `allow` (the rate limit) may refuse a
 * notice: it stays due and is offered again at the next evaluation. An alert
 * that clears before its firing notice left is forgotten without a word.
 */
export class AlertStateTracker {
  private readonly tracked = new Map<string, Tracked>();

  constructor(private readonly repeatMs: number) {}

  /** Applies one evaluation (rules left out, or `unknown`, keep their state) and returns the notices due. */
  evaluate(
    outcomes: ReadonlyMap<AlertName, CheckOutcome>,
    now: number,
    allow: () => boolean,
  ): AlertNotice[] {
    for (const [alert, outcome] of outcomes) {
      if (outcome !== 'unknown') this.apply(alert, outcome, now);
    }
    const notices: AlertNotice[] = [];
    for (const [key, state] of this.tracked) {
      const notice = this.dueNotice(state, now);
      if (!notice || !allow()) continue;
      notices.push(notice);
      if (notice.status === 'resolved') this.tracked.delete(key);
      else state.firingSentAt = now;
    }
    return notices;
  }

  /** Instances of `alert` whose condition holds now. */
  firing(alert: AlertName): number {
    let count = 0;
    for (const state of this.tracked.values()) {
      if (state.observation.alert === alert && state.clearedAt === undefined) count++;
    }
    return count;
  }

  private apply(alert: AlertName, observations: AlertObservation[], now: number): void {
    const seen = new Set<string>();
    for (const observation of observations) {
      const key = keyOf(observation);
      seen.add(key);
      const state = this.tracked.get(key);
      if (state) {
        // Back before its resolved notice left: still the same episode for the receiver.
        state.clearedAt = undefined;
        state.observation = observation;
      } else {
        this.tracked.set(key, { observation, startsAt: now });
      }
    }
    for (const [key, state] of this.tracked) {
      if (state.observation.alert !== alert || seen.has(key) || state.clearedAt !== undefined) {
        continue;
      }
      if (state.firingSentAt === undefined) this.tracked.delete(key);
      else state.clearedAt = now;
    }
  }

  private dueNotice(state: Tracked, now: number): AlertNotice | undefined {
    const { observation, startsAt } = state;
    if (state.clearedAt !== undefined) {
      return { status: 'resolved', observation, startsAt, endsAt: state.clearedAt };
    }
    if (state.firingSentAt === undefined || now - state.firingSentAt >= this.repeatMs) {
      return { status: 'firing', observation, startsAt };
    }
    return undefined;
  }
}

/** Alert name and labels in a fixed order: one key per instance. */
export function keyOf(observation: AlertObservation): string {
  const labels = Object.entries(observation.labels).sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([observation.alert, labels]);
}
