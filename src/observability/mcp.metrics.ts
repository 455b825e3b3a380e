import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter, Gauge, Histogram } from 'prom-client';
import { LimitName } from '../errors/limit-exceeded';
import {
  MCP_LIMIT_REFUSALS_TOTAL,
  MCP_REQUEST_DURATION_SECONDS,
  MCP_REQUESTS_TOTAL,
  MCP_SESSIONS_ACTIVE,
} from './metrics.constants';
import { outcomeOfCode, RequestOutcome } from './outcome';

/** Label used for requests rejected before a method was resolved (keeps cardinality bounded). */
export const UNRESOLVED_METHOD = '(rejected)';

/** The gateway's request and session metrics, behind one small API. */
@Injectable()
export class McpMetrics {
  constructor(
    @InjectMetric(MCP_REQUESTS_TOTAL) private readonly requests: Counter<'method' | 'outcome'>,
    @InjectMetric(MCP_REQUEST_DURATION_SECONDS) private readonly duration: Histogram<'method'>,
    @InjectMetric(MCP_SESSIONS_ACTIVE) private readonly sessions: Gauge<'transport'>,
    @InjectMetric(MCP_LIMIT_REFUSALS_TOTAL) private readonly limitRefusals: Counter<'limit'>,
  ) {}

  recordRequest(method: string, outcome: RequestOutcome, seconds: number): void {
    this.requests.inc({ method, outcome });
    this.duration.observe({ method }, seconds);
  }

  /** Requests counted since start by outcome; read by the error-rate alert per evaluation, never per request. */
  async outcomeTotals(): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    for (const { labels, value } of (await this.requests.get()).values) {
      const outcome = String(labels.outcome);
      totals.set(outcome, (totals.get(outcome) ?? 0) + value);
    }
    return totals;
  }

  recordRejected(code: number): void {
    this.requests.inc({ method: UNRESOLVED_METHOD, outcome: outcomeOfCode(code) });
  }

  /** One request refused by a `limits.*` key; the label set is as small as the limits section. */
  recordLimitRefusal(limit: LimitName): void {
    this.limitRefusals.inc({ limit });
  }

  sessionOpened(transport: string): void {
    this.sessions.inc({ transport });
  }

  sessionClosed(transport: string): void {
    this.sessions.dec({ transport });
  }
}
