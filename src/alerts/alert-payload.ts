import { createHash, randomUUID } from 'node:crypto';
import { clipText } from '../logging/clipped-text';
import { AlertNotice } from './alert-state.tracker';
import { ALERT_LIMITS } from './alerts.constants';

/** Who sends: per-replica alerts carry the replica, so receivers can tell replicas apart. */
export interface GatewayIdentity {
  /** `<hostname>:<pid>` (the pod name in Kubernetes). */
  instance: string;
  hostname: string;
  pid: number;
  version: string;
}

/** The JSON body posted to every webhook (documented in docs/deployment.md, "Alerts"). */
export interface AlertPayload {
  version: 1;
  /** Unique per notification, the same in each retry of it: receivers can drop duplicates. */
  id: string;
  status: 'firing' | 'resolved';
  alert: string;
  severity: string;
  summary: string;
  /** `alertname`, `severity`, `instance`, and the instance labels (`server`, `client`). */
  labels: Record<string, string>;
  startsAt: string;
  endsAt?: string;
  /** Stable for one alert instance on one replica across its notifications. */
  fingerprint: string;
  gateway: GatewayIdentity;
}

export function alertPayload(notice: AlertNotice, gateway: GatewayIdentity): AlertPayload {
  const { observation } = notice;
  const labels = {
    ...observation.labels,
    alertname: observation.alert,
    severity: observation.severity,
    instance: gateway.instance,
  };
  return {
    version: 1,
    id: randomUUID(),
    status: notice.status,
    alert: observation.alert,
    severity: observation.severity,
    summary: clipText(observation.summary, ALERT_LIMITS.maxSummaryChars),
    labels,
    startsAt: new Date(notice.startsAt).toISOString(),
    ...(notice.endsAt === undefined ? {} : { endsAt: new Date(notice.endsAt).toISOString() }),
    fingerprint: fingerprintOf(labels),
    gateway,
  };
}

function fingerprintOf(labels: Record<string, string>): string {
  const sorted = Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 16);
}
