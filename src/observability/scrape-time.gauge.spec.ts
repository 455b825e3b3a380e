import { Registry } from 'prom-client';
import { ScrapeTimeGauge } from './scrape-time.gauge';

describe('ScrapeTimeGauge', () => {
  const options = { name: 'owlclaw_test_value', help: 'A value read at scrape time' };

  it('reads its value when the registry is scraped, and only while started', async () => {
    const registry = new Registry();
    let value = 1;
    const gauge = new ScrapeTimeGauge(options, (g) => g.set(value), registry);
    expect(await registry.metrics()).not.toContain('owlclaw_test_value');
    gauge.start();
    expect(await registry.metrics()).toContain('owlclaw_test_value 1');
    value = 7;
    expect(await registry.metrics()).toContain('owlclaw_test_value 7');
    gauge.stop();
    expect(await registry.metrics()).not.toContain('owlclaw_test_value');
  });

  it('lets a later owner take the name over, and an earlier one stop without removing it', async () => {
    const registry = new Registry();
    const earlier = new ScrapeTimeGauge(options, (g) => g.set(1), registry);
    const later = new ScrapeTimeGauge(options, (g) => g.set(2), registry);
    earlier.start();
    later.start();
    earlier.stop();
    expect(await registry.metrics()).toContain('owlclaw_test_value 2');
    later.stop();
    expect(await registry.metrics()).not.toContain('owlclaw_test_value');
  });
});
