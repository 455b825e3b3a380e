import { ALERT_LIMITS } from '../alerts.constants';
import { budgetsAbove } from './budget.check';
import { upstreamsDown } from './upstream-down.check';

describe('budgetsAbove', () => {
  it('names each client at or past the percentage of its own budget, the highest share first', () => {
    const found = budgetsAbove(
      [
        { clientId: 'under', spend: 89.99, budget: 100 },
        { clientId: 'at', spend: 90, budget: 100 },
        { clientId: 'over', spend: 30, budget: 25 },
        { clientId: 'free', spend: 5, budget: 0 },
      ],
      90,
    );
    expect(found.map((o) => o.labels)).toEqual([{ client: 'over' }, { client: 'at' }]);
    expect(found[0]).toMatchObject({ alert: 'budget', severity: 'warning' });
    expect(found[0].summary).toContain('120.0 % of its monthly budget (30 of 25)');
  });

  it(`reports at most ${ALERT_LIMITS.maxFiringPerRule} clients, and cuts long client ids`, () => {
    const spends = Array.from({ length: 500 }, (_, i) => ({
      clientId: `${'c'.repeat(300)}${i}`,
      spend: 100 + i,
      budget: 100,
    }));
    const found = budgetsAbove(spends, 90);
    expect(found).toHaveLength(ALERT_LIMITS.maxFiringPerRule);
    expect(found[0].labels.client).toHaveLength(ALERT_LIMITS.maxLabelChars);
    expect(found[0].summary).toContain('599.0 %');
  });
});

describe('upstreamsDown', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  const minutesAgo = (m: number) => new Date(now - m * 60_000);

  it('names upstreams down for at least the configured time, longest first', () => {
    const found = upstreamsDown(
      [
        { serverId: 'recent', state: 'down', since: minutesAgo(4) },
        { serverId: 'old', state: 'down', since: minutesAgo(30), lastError: 'spawn ENOENT' },
        { serverId: 'exact', state: 'down', since: minutesAgo(5) },
        { serverId: 'restarting', state: 'degraded', since: minutesAgo(60) },
        { serverId: 'fine', state: 'connected', since: minutesAgo(60) },
      ],
      5 * 60_000,
      now,
    );
    expect(found.map((o) => o.labels.server)).toEqual(['old', 'exact']);
    expect(found[0].summary).toContain('down since 2026-11-26T11:30:00.000Z (30 min)');
    expect(found[0].summary).toContain('last error: spawn ENOENT');
  });

  it(`reports at most ${ALERT_LIMITS.maxFiringPerRule} upstreams`, () => {
    const many = Array.from({ length: 200 }, (_, i) => ({
      serverId: `s${i}`,
      state: 'down',
      since: minutesAgo(10 + i),
    }));
    const found = upstreamsDown(many, 0, now);
    expect(found).toHaveLength(ALERT_LIMITS.maxFiringPerRule);
    expect(found[0].labels.server).toBe('s199');
  });
});
