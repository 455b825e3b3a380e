import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter, Gauge, Histogram } from 'prom-client';
import {
  MCP_REQUEST_DURATION_SECONDS,
  MCP_REQUESTS_TOTAL,
  MCP_SESSIONS_ACTIVE,
} from './metrics.constants';
import { outcomeOfCode, RequestOutcome } from './outcome';

/** Label used for requests rejected before a method was resolved (keeps cardinality bounded). */
export const UNRESOLVED_METHOD = '(rejected)';

/** The bound children prom-client hands out, kept so a call does not hash its labels again. */
interface MethodSeries {
  duration: { observe(value: number): void };
  outcomes: Map<RequestOutcome, { inc(): void }>;
}

/** The gateway's request and session metrics, behind one small API. */
@Injectable()
export class McpMetrics {
  /** Keyed by registered method name only, so the map stays as small as the registry. */
  private readonly series = new Map<string, MethodSeries>();

  constructor(
    @InjectMetric(MCP_REQUESTS_TOTAL) private readonly requests: Counter<'method' | 'outcome'>,
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
      counter = this.requests.labels({ method, outcome });
      series.outcomes.set(outcome, counter);
    }
    counter.inc();
    series.duration.observe(seconds);
  }

  recordRejected(code: number): void {
    this.requests.inc({ method: UNRESOLVED_METHOD, outcome: outcomeOfCode(code) });
  }

  sessionOpened(transport: string): void {
    this.sessions.inc({ transport });
  }

  sessionClosed(transport: string): void {
    this.sessions.dec({ transport });
  }
}
