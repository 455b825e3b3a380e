import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { AuditTrail } from '../json-rpc/audit-trail';
import { CallObserver, CompletedCall } from '../json-rpc/call-observers';
import { RequestTracer } from '../observability/tracing/request-tracer';
import {
  ATTR_MCP_LEDGER_DRIVER,
  SPAN_LEDGER_WRITE,
} from '../observability/tracing/span-attributes';
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
  private readonly spanAttributes: Record<string, string>;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly observers: AuditTrail,
    private readonly writer: LedgerWriter,
    private readonly metrics: LedgerMetrics,
    private readonly tracer: RequestTracer,
  ) {
    this.spanAttributes = { [ATTR_MCP_LEDGER_DRIVER]: config.ledger.driver };
    this.options = {
      recordArguments: config.ledger.record_arguments,
      redactor: new ArgumentRedactor(config.ledger.redact_keys),
    };
  }

  onModuleInit(): void {
    if (this.config.ledger.enabled) this.observers.register(this);
  }

  /** The row's commit is the request's ledger write step in its trace. */
  callCompleted(call: CompletedCall): Promise<void> {
    return this.tracer.inSpan(SPAN_LEDGER_WRITE, this.spanAttributes, () => this.write(call));
  }

  private write(call: CompletedCall): Promise<void> {
    const row = toLedgerRow(call, this.options);
    this.metrics.countToolCall(row);
    const started = performance.now();
    return this.writer.record(row).then(
      () => this.metrics.writeTook(performance.now() - started),
      (err: unknown) => {
        this.metrics.writeFailed();
        this.metrics.writeTook(performance.now() - started);
        throw err;
      },
    );
  }
}
