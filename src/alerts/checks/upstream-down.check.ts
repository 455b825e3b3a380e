import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { UpstreamPool } from '../../upstreams/upstream.pool';
import { UpstreamRegistryService } from '../../upstreams/upstream-registry.service';
import { AlertCheck, AlertObservation, CheckOutcome } from '../alert-observation';
import { ALERT_LIMITS } from '../alerts.constants';
import { clipLabel } from './alert-label';

/** What the check reads of one upstream. */
export interface UpstreamDownState {
  serverId: string;
  state: string;
  since: Date;
  lastError?: string;
}

/**
 * Upstreams in state `down` (given up on after repeated crashes, or an HTTP
 * upstream that failed to connect) for at least `minutes`, longest down
 * first, at most ALERT_LIMITS.maxFiringPerRule of them.
 */
export function upstreamsDown(
  upstreams: readonly UpstreamDownState[],
  minDownMs: number,
  now: number,
): AlertObservation[] {
  return upstreams
    .filter((u) => u.state === 'down' && now - u.since.getTime() >= minDownMs)
    .sort((a, b) => a.since.getTime() - b.since.getTime())
    .slice(0, ALERT_LIMITS.maxFiringPerRule)
    .map((u): AlertObservation => {
      const minutes = Math.floor((now - u.since.getTime()) / 60_000);
      const error = u.lastError
        ? `; last error: ${u.lastError.slice(0, ALERT_LIMITS.maxReasonChars)}`
        : '';
      return {
        alert: 'upstream_down',
        severity: 'warning',
        labels: { server: clipLabel(u.serverId) },
        summary: `Upstream ${clipLabel(u.serverId)} has been down since ${u.since.toISOString()} (${minutes} min); its tools are not served${error}.`,
      };
    });
}

@Injectable()
export class UpstreamDownCheck implements AlertCheck {
  readonly alert = 'upstream_down';
  readonly active: boolean;
  private readonly minDownMs: number;

  constructor(
    private readonly registry: UpstreamRegistryService,
    private readonly pool: UpstreamPool,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.active = config.alerts.rules.upstream_down.enabled;
    this.minDownMs = config.alerts.rules.upstream_down.minutes * 60_000;
  }

  evaluate(now: number): Promise<CheckOutcome> {
    // The registry's own limits bound how many servers there are.
    const states = this.registry.current.servers.flatMap((record): UpstreamDownState[] => {
      const status = this.pool.connection(record.server_id)?.status;
      if (!status) return [];
      return [
        {
          serverId: record.server_id,
          state: status.state,
          since: status.since,
          lastError: status.last_error,
        },
      ];
    });
    return Promise.resolve(upstreamsDown(states, this.minDownMs, now));
  }
}
