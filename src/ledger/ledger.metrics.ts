import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter, Histogram } from 'prom-client';
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
  constructor(
    @InjectMetric(MCP_TOOL_CALLS_TOTAL) private readonly toolCalls: Counter<'tool' | 'outcome'>,
    @InjectMetric(MCP_LEDGER_WRITE_DURATION_SECONDS) private readonly writes: Histogram,
  ) {}

  countToolCall(row: LedgerRow): void {
    if (row.method !== 'tools/call') return;
    const unknown = row.errorCode === Number(ErrorCode.ToolNotFound) || row.target === '';
    this.toolCalls.inc({ tool: unknown ? UNKNOWN_TOOL : row.target, outcome: row.outcome });
  }

  /** Starts a write timer; call the result when the write has settled. */
  startWrite(): () => void {
    return this.writes.startTimer();
  }
}
