import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { AuditTrail } from '../json-rpc/audit-trail';
import { CallObserver, CompletedCall } from '../json-rpc/call-observers';
import { ArgumentRedactor } from './argument-redactor';
import { LedgerRowOptions, toLedgerRow } from './call-to-ledger-row';
import { LedgerMetrics } from './ledger.metrics';
import { LedgerWriter } from './ledger.writer';

/**
 * Writes one ledger row per audited call (allowed, denied, failed or
 * cancelled) before its response leaves. A failed write rejects, and the
 * dispatcher then answers with an error instead of an unrecorded result.
 */
@Injectable()
export class LedgerObserver implements CallObserver, OnModuleInit {
  private readonly options: LedgerRowOptions;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly observers: AuditTrail,
    private readonly writer: LedgerWriter,
    private readonly metrics: LedgerMetrics,
  ) {
    this.options = {
      recordArguments: config.ledger.record_arguments,
      redactor: new ArgumentRedactor(config.ledger.redact_keys),
    };
  }

  onModuleInit(): void {
    if (this.config.ledger.enabled) this.observers.register(this);
  }

  async callCompleted(call: CompletedCall): Promise<void> {
    const row = toLedgerRow(call, this.options);
    this.metrics.countToolCall(row);
    const started = performance.now();
    try {
      await this.writer.record(row);
    } catch (err) {
      this.metrics.writeFailed();
      throw err;
    } finally {
      this.metrics.writeTook(performance.now() - started);
    }
  }
}
