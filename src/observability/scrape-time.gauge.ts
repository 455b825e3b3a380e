import { Gauge, register, Registry } from 'prom-client';

export interface ScrapeTimeGaugeOptions<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
}

/**
 * A gauge whose value is read from its owner when /metrics is scraped. The
 * owner starts it when its module starts and stops it at shutdown, so a
 * gauge whose owner does not exist (Redis on the memory driver) has no
 * series at all, and a gateway started again in one process (the test
 * suites) reports its own state, never a closed instance's.
 */
export class ScrapeTimeGauge<L extends string = string> {
  private readonly gauge: Gauge<L>;
  private readonly name: string;

  constructor(
    options: ScrapeTimeGaugeOptions<L>,
    read: (gauge: Gauge<L>) => Promise<void> | void,
    private readonly registry: Registry = register,
  ) {
    this.name = options.name;
    this.gauge = new Gauge<L>({
      name: options.name,
      help: options.help,
      labelNames: options.labelNames ?? [],
      registers: [],
      collect: () => read(this.gauge),
    });
  }

  /** Takes the name over from an earlier owner in this process, if any. */
  start(): void {
    this.registry.removeSingleMetric(this.name);
    this.registry.registerMetric(this.gauge);
  }

  stop(): void {
    if (this.registry.getSingleMetric(this.name) === this.gauge) {
      this.registry.removeSingleMetric(this.name);
    }
  }
}
