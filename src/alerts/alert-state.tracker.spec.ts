import { AlertName, AlertObservation, CheckOutcome } from './alert-observation';
import { AlertNotice, AlertStateTracker } from './alert-state.tracker';

const REPEAT_MS = 60_000;

function redisDown(summary = 'Redis is unreachable'): AlertObservation {
  return { alert: 'redis_down', severity: 'critical', labels: {}, summary };
}

function upstreamDown(server: string): AlertObservation {
  return { alert: 'upstream_down', severity: 'warning', labels: { server }, summary: server };
}

const always = (): boolean => true;

function run(
  tracker: AlertStateTracker,
  now: number,
  outcomes: Array<[AlertName, CheckOutcome]>,
  allow: () => boolean = always,
): Array<Pick<AlertNotice, 'status' | 'startsAt' | 'endsAt'> & { key: string }> {
  return tracker.evaluate(new Map(outcomes), now, allow).map((notice) => ({
    key: `${notice.observation.alert}${JSON.stringify(notice.observation.labels)}`,
    status: notice.status,
    startsAt: notice.startsAt,
    ...(notice.endsAt === undefined ? {} : { endsAt: notice.endsAt }),
  }));
}

describe('AlertStateTracker', () => {
  it('sends a new alert once, then nothing while it keeps firing within the repeat interval', () => {
    const tracker = new AlertStateTracker(REPEAT_MS);
    expect(run(tracker, 1_000, [['redis_down', [redisDown()]]])).toEqual([
      { key: 'redis_down{}', status: 'firing', startsAt: 1_000 },
    ]);
    for (const now of [16_000, 31_000, 46_000, 60_999]) {
      expect(run(tracker, now, [['redis_down', [redisDown()]]])).toEqual([]);
    }
    expect(tracker.firing('redis_down')).toBe(1);
  });

  it('sends a still firing alert again once the repeat interval has passed, keeping its start', () => {
    const tracker = new AlertStateTracker(REPEAT_MS);
    run(tracker, 1_000, [['redis_down', [redisDown()]]]);
    expect(run(tracker, 61_000, [['redis_down', [redisDown('changed words')]]])).toEqual([
      { key: 'redis_down{}', status: 'firing', startsAt: 1_000 },
    ]);
    expect(run(tracker, 76_000, [['redis_down', [redisDown()]]])).toEqual([]);
    expect(run(tracker, 121_000, [['redis_down', [redisDown()]]])).toHaveLength(1);
  });

  it('sends resolved once when the condition clears, then forgets the alert', () => {
    const tracker = new AlertStateTracker(REPEAT_MS);
    run(tracker, 1_000, [['redis_down', [redisDown()]]]);
    expect(run(tracker, 16_000, [['redis_down', []]])).toEqual([
      { key: 'redis_down{}', status: 'resolved', startsAt: 1_000, endsAt: 16_000 },
    ]);
    expect(run(tracker, 31_000, [['redis_down', []]])).toEqual([]);
    expect(tracker.firing('redis_down')).toBe(0);
    // Firing again is a new episode with a new start.
    expect(run(tracker, 46_000, [['redis_down', [redisDown()]]])).toEqual([
      { key: 'redis_down{}', status: 'firing', startsAt: 46_000 },
    ]);
  });

  it('keeps an alert as it was while its check cannot tell (unknown) or was not run', () => {
    const tracker = new AlertStateTracker(REPEAT_MS);
    run(tracker, 1_000, [['redis_down', [redisDown()]]]);
    expect(run(tracker, 16_000, [['redis_down', 'unknown']])).toEqual([]);
    expect(run(tracker, 31_000, [])).toEqual([]);
    expect(tracker.firing('redis_down')).toBe(1);
    expect(run(tracker, 46_000, [['redis_down', []]])).toEqual([
      { key: 'redis_down{}', status: 'resolved', startsAt: 1_000, endsAt: 46_000 },
    ]);
  });

  it('tracks the instances of one alert apart, by their labels', () => {
    const tracker = new AlertStateTracker(REPEAT_MS);
    expect(
      run(tracker, 1_000, [['upstream_down', [upstreamDown('a'), upstreamDown('b')]]]),
    ).toEqual([
      { key: 'upstream_down{"server":"a"}', status: 'firing', startsAt: 1_000 },
      { key: 'upstream_down{"server":"b"}', status: 'firing', startsAt: 1_000 },
    ]);
    expect(
      run(tracker, 16_000, [['upstream_down', [upstreamDown('b'), upstreamDown('c')]]]),
    ).toEqual([
      { key: 'upstream_down{"server":"a"}', status: 'resolved', startsAt: 1_000, endsAt: 16_000 },
      { key: 'upstream_down{"server":"c"}', status: 'firing', startsAt: 16_000 },
    ]);
    expect(tracker.firing('upstream_down')).toBe(2);
  });

  it('leaves other alerts alone when one rule reports', () => {
    const tracker = new AlertStateTracker(REPEAT_MS);
    run(tracker, 1_000, [
      ['redis_down', [redisDown()]],
      ['upstream_down', [upstreamDown('a')]],
    ]);
    expect(run(tracker, 16_000, [['upstream_down', []]])).toEqual([
      { key: 'upstream_down{"server":"a"}', status: 'resolved', startsAt: 1_000, endsAt: 16_000 },
    ]);
    expect(tracker.firing('redis_down')).toBe(1);
  });

  describe('with a rate limit refusing notices', () => {
    it('offers a refused firing notice again at the next evaluation, with its original start', () => {
      const tracker = new AlertStateTracker(REPEAT_MS);
      expect(run(tracker, 1_000, [['redis_down', [redisDown()]]], () => false)).toEqual([]);
      expect(tracker.firing('redis_down')).toBe(1);
      expect(run(tracker, 16_000, [['redis_down', [redisDown()]]])).toEqual([
        { key: 'redis_down{}', status: 'firing', startsAt: 1_000 },
      ]);
    });

    it('says nothing at all of an alert that cleared before its firing notice could leave', () => {
      const tracker = new AlertStateTracker(REPEAT_MS);
      run(tracker, 1_000, [['redis_down', [redisDown()]]], () => false);
      expect(run(tracker, 16_000, [['redis_down', []]])).toEqual([]);
      expect(run(tracker, 31_000, [['redis_down', []]])).toEqual([]);
    });

    it('offers a refused resolved notice again, and drops it if the alert fires first', () => {
      const tracker = new AlertStateTracker(REPEAT_MS);
      run(tracker, 1_000, [['redis_down', [redisDown()]]]);
      expect(run(tracker, 16_000, [['redis_down', []]], () => false)).toEqual([]);
      expect(tracker.firing('redis_down')).toBe(0);
      expect(run(tracker, 31_000, [['redis_down', []]])).toEqual([
        { key: 'redis_down{}', status: 'resolved', startsAt: 1_000, endsAt: 16_000 },
      ]);

      run(tracker, 46_000, [['redis_down', [redisDown()]]]);
      run(tracker, 61_000, [['redis_down', []]], () => false);
      // Back before the receiver heard it had cleared: the same episode, nothing new to say.
      expect(run(tracker, 76_000, [['redis_down', [redisDown()]]])).toEqual([]);
      expect(tracker.firing('redis_down')).toBe(1);
    });

    it('asks the limit once per notice that is due, and not for alerts with nothing to say', () => {
      const tracker = new AlertStateTracker(REPEAT_MS);
      let asked = 0;
      const counting = (): boolean => {
        asked++;
        return true;
      };
      run(tracker, 1_000, [['upstream_down', [upstreamDown('a'), upstreamDown('b')]]], counting);
      expect(asked).toBe(2);
      run(tracker, 16_000, [['upstream_down', [upstreamDown('a'), upstreamDown('b')]]], counting);
      expect(asked).toBe(2);
    });
  });
});
