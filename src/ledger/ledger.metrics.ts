import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter, Histogram } from 'prom-client';
import { ErrorCode } from '../errors/error-code';
import { LedgerRow } from './ledger-row';
import {
  MCP_LEDGER_WRITE_DURATION_SECONDS,
  MCP_LEDGER_WRITE_FAILURES_TOTAL,
  MCP_TOOL_CALLS_TOTAL,
} from './ledger-metrics.constants';

/** Label for calls naming no existing tool: client-chosen names must not become label values. */
export const UNKNOWN_TOOL = '(unknown)';

/** Per-tool call counts, ledger write latency, and rows the ledger could not commit. */
@Injectable()
export class LedgerMetrics {
  constructor(
    @InjectMetric(MCP_TOOL_CALLS_TOTAL) private readonly toolCalls: Counter<'tool' | 'outcome'>,
    @InjectMetric(MCP_LEDGER_WRITE_DURATION_SECONDS) private readonly writes: Histogram,
    @InjectMetric(MCP_LEDGER_WRITE_FAILURES_TOTAL) private readonly failures: Counter,
  ) {}

  countToolCall(row: LedgerRow): void {
    if (row.method !== 'tools/call') return;
    const unknown = row.errorCode === Number(ErrorCode.ToolNotFound) || row.target === '';
    this.toolCalls.inc({ tool: unknown ? UNKNOWN_TOOL : row.target, outcome: row.outcome });
  }

  /**
   * A row's write settled after `ms` milliseconds, timed by the caller with
   * performance.now(), which allocates nothing per call as prom-client's
   * startTimer() does (docs/performance.md).
   */
  writeTook(ms: number): void {
    this.writes.observe(ms / 1000);
  }

  /** A row was not committed: its call was answered with ledger_unavailable. */
  writeFailed(): void {
    this.failures.inc();
  }
}
