import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { McpMetrics } from '../../observability/mcp.metrics';
import { RequestOutcome } from '../../observability/outcome';
import { AlertCheck, CheckOutcome } from '../alert-observation';
import { ALERT_LIMITS } from '../alerts.constants';
import { ErrorRateWindow } from '../error-rate.window';

/**
 * Outcomes that are the gateway's or a tool's failure. A client's mistake
 * (protocol_error, not_found) or a governance refusal (denied) is the system
 * working as configured, not an error to wake someone for.
 */
export const FAILED_OUTCOMES: ReadonlySet<RequestOutcome> = new Set<RequestOutcome>([
  'execution_error',
  'timeout',
  'internal_error',
]);

/**
 * Failed MCP requests above `threshold` of at least `min_requests` requests
 * over the last `window_seconds`, from mcp_requests_total as it stands at
 * each evaluation (the request path counts nothing more for it).
 */
@Injectable()
export class ErrorRateCheck implements AlertCheck {
  readonly alert = 'error_rate';
  readonly active: boolean;
  private readonly rule: GatewayConfig['alerts']['rules']['error_rate'];
  private readonly window: ErrorRateWindow;

  constructor(
    private readonly metrics: McpMetrics,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.rule = config.alerts.rules.error_rate;
    this.active = this.rule.enabled;
    // The counters start at zero with the process: that is the first reading.
    this.window = new ErrorRateWindow(
      this.rule.window_seconds * 1000,
      { at: Date.now(), requests: 0, failed: 0 },
      ALERT_LIMITS.maxRateReadings,
    );
  }

  async evaluate(now: number): Promise<CheckOutcome> {
    let requests = 0;
    let failed = 0;
    for (const [outcome, count] of await this.metrics.outcomeTotals()) {
      requests += count;
      if (FAILED_OUTCOMES.has(outcome as RequestOutcome)) failed += count;
    }
    const inWindow = this.window.record(now, { requests, failed });
    if (inWindow.requests < this.rule.min_requests) return [];
    const rate = inWindow.failed / inWindow.requests;
    if (rate <= this.rule.threshold) return [];
    return [
      {
        alert: this.alert,
        severity: 'warning',
        labels: {},
        summary: `${inWindow.failed} of ${inWindow.requests} MCP requests (${percent(rate)}) failed over the last ${this.rule.window_seconds} s; the threshold is ${percent(this.rule.threshold)}.`,
      },
    ];
  }
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}
