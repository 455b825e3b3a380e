import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Histogram } from 'prom-client';
import {
  CounterTally,
  InjectCounterTally,
  SeriesByTwoLabels,
} from '../observability/counter-tally';
import { ErrorCode } from '../errors/error-code';
import { LedgerRow } from './ledger-row';
import {
  MCP_LEDGER_WRITE_DURATION_SECONDS,
  MCP_TOOL_CALLS_TOTAL,
} from './ledger-metrics.constants';

/** Label for calls naming no existing tool: client-chosen names must not become label values. */
export const UNKNOWN_TOOL = '(unknown)';

/** Per-tool call counts and ledger write latency. */
@Injectable()
export class LedgerMetrics {
  private readonly toolCalls: SeriesByTwoLabels<'tool', 'outcome'>;

  constructor(
    @InjectCounterTally(MCP_TOOL_CALLS_TOTAL) toolCalls: CounterTally<'tool' | 'outcome'>,
    @InjectMetric(MCP_LEDGER_WRITE_DURATION_SECONDS) private readonly writes: Histogram,
  ) {
    this.toolCalls = new SeriesByTwoLabels(toolCalls, 'tool', 'outcome');
  }

  countToolCall(row: LedgerRow): void {
    if (row.method !== 'tools/call') return;
    const unknown = row.errorCode === Number(ErrorCode.ToolNotFound) || row.target === '';
    this.toolCalls.get(unknown ? UNKNOWN_TOOL : row.target, row.outcome).inc();
  }

  /**
   * A row's write settled after `ms` milliseconds. Timed by the caller with
   * performance.now(): prom-client's startTimer() makes two closures, two
   * hrtime arrays and a label object per call.
   */
  writeTook(ms: number): void {
    this.writes.observe(ms / 1000);
  }
}
