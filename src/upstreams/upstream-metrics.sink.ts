import type { UpstreamState } from './upstream-state';

/** How a connect attempt ended: `refused` means upstreams.max_children left no room for a child. */
export type UpstreamConnectOutcome = 'success' | 'failure' | 'refused';

/**
 * What a connection reports to metrics; the Prometheus side is
 * src/observability/upstream.metrics.ts. Connections built without Nest
 * (tests, the CLI) report to NO_UPSTREAM_METRICS.
 */
export interface UpstreamMetricsSink {
  connectAttempt(serverId: string, outcome: UpstreamConnectOutcome): void;
  /** `outcome`: success, tool_error (an isError result) or the error's data.code. */
  call(serverId: string, tool: string, outcome: string, seconds: number): void;
  /** Result bytes before max_tool_output_bytes cut anything. */
  outputBytes(serverId: string, bytes: number): void;
  state(serverId: string, state: UpstreamState): void;
  children(running: number): void;
}

export const NO_UPSTREAM_METRICS: UpstreamMetricsSink = {
  connectAttempt: () => undefined,
  call: () => undefined,
  outputBytes: () => undefined,
  state: () => undefined,
  children: () => undefined,
};
