import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { makeCounterProvider, makeHistogramProvider } from '@willsoto/nestjs-prometheus';
import { LEDGER_STORE } from './ledger-store';
import {
  MCP_LEDGER_WRITE_DURATION_SECONDS,
  MCP_LEDGER_WRITE_FAILURES_TOTAL,
  MCP_TOOL_CALLS_TOTAL,
} from './ledger-metrics.constants';
import { ledgerStoreProvider, ledgerWriterProvider } from './ledger-store.provider';
import { LedgerHealthIndicator } from './ledger.health';
import { LedgerLifecycle } from './ledger.lifecycle';
import { LedgerMetrics } from './ledger.metrics';
import { LedgerObserver } from './ledger.observer';
import { LedgerRetention } from './ledger.retention';
import { LedgerStateMetrics } from './ledger-state.metrics';
import { LedgerWriter } from './ledger.writer';

/**
 * The call ledger: the store chosen by `ledger.driver` (LEDGER_STORE), group
 * commit, the observer that records every audited call, retention, the
 * readiness indicator, and the guard (part of @Governed()) that refuses
 * governed calls while the ledger cannot record them, and the metrics.
 */
@Module({
  imports: [TerminusModule],
  providers: [
    ledgerStoreProvider,
    ledgerWriterProvider,
    LedgerObserver,
    LedgerRetention,
    LedgerLifecycle,
    LedgerHealthIndicator,
    LedgerMetrics,
    LedgerStateMetrics,
    makeCounterProvider({
      name: MCP_TOOL_CALLS_TOTAL,
      help: 'tools/call requests by tool and ledger outcome',
      labelNames: ['tool', 'outcome'],
    }),
    makeCounterProvider({
      name: MCP_LEDGER_WRITE_FAILURES_TOTAL,
      help: 'Ledger rows whose commit failed; each call was answered with ledger_unavailable',
    }),
    makeHistogramProvider({
      name: MCP_LEDGER_WRITE_DURATION_SECONDS,
      help: 'Time from handing a ledger row to the writer until its group commit is durable',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    }),
  ],
  exports: [LEDGER_STORE, LedgerWriter, LedgerHealthIndicator],
})
export class LedgerModule {}
