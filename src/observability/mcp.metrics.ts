import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Gauge, Histogram } from 'prom-client';
import { CounterTally, InjectCounterTally, TallySeries } from './counter-tally';
import {
  MCP_REQUEST_DURATION_SECONDS,
  MCP_REQUESTS_TOTAL,
  MCP_SESSIONS_ACTIVE,
} from './metrics.constants';
import { outcomeOfCode, RequestOutcome } from './outcome';

/** Label used for requests rejected before a method was resolved (keeps cardinality bounded). */
export const UNRESOLVED_METHOD = '(rejected)';

/** A method's series, looked up once: a call neither builds nor hashes a label string. */
interface MethodSeries {
  duration: { observe(value: number): void };
  outcomes: Map<RequestOutcome, TallySeries>;
}

/** The gateway's request and session metrics, behind one small API. */
@Injectable()
export class McpMetrics {
  /** Keyed by registered method name only, so the map stays as small as the registry. */
  private readonly series = new Map<string, MethodSeries>();
  /** Rejected frames by outcome: a flood of junk looks up a series, not a label string. */
  private readonly rejected = new Map<RequestOutcome, TallySeries>();

  constructor(
    @InjectCounterTally(MCP_REQUESTS_TOTAL)
    private readonly requests: CounterTally<'method' | 'outcome'>,
    @InjectMetric(MCP_REQUEST_DURATION_SECONDS) private readonly duration: Histogram<'method'>,
    @InjectMetric(MCP_SESSIONS_ACTIVE) private readonly sessions: Gauge<'transport'>,
  ) {}

  recordRequest(method: string, outcome: RequestOutcome, seconds: number): void {
    let series = this.series.get(method);
    if (!series) {
      series = { duration: this.duration.labels({ method }), outcomes: new Map() };
      this.series.set(method, series);
    }
    let counter = series.outcomes.get(outcome);
    if (!counter) {
      counter = this.requests.seriesFor({ method, outcome });
      series.outcomes.set(outcome, counter);
    }
    counter.inc();
    series.duration.observe(seconds);
  }

  recordRejected(code: number): void {
    const outcome = outcomeOfCode(code);
    let counter = this.rejected.get(outcome);
    if (!counter) {
      counter = this.requests.seriesFor({ method: UNRESOLVED_METHOD, outcome });
      this.rejected.set(outcome, counter);
    }
    counter.inc();
  }

  sessionOpened(transport: string): void {
    this.sessions.inc({ transport });
  }

  sessionClosed(transport: string): void {
    this.sessions.dec({ transport });
  }
}
