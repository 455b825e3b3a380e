import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter, Gauge, Histogram } from 'prom-client';
import type {
  UpstreamConnectOutcome,
  UpstreamMetricsSink,
} from '../upstreams/upstream-metrics.sink';
import { UPSTREAM_STATES, UpstreamState } from '../upstreams/upstream-state';
import {
  MCP_UPSTREAM_CALL_DURATION_SECONDS,
  MCP_UPSTREAM_CALLS_TOTAL,
  MCP_UPSTREAM_CHILDREN,
  MCP_UPSTREAM_CONNECT_TOTAL,
  MCP_UPSTREAM_OUTPUT_BYTES,
  MCP_UPSTREAM_STATE,
} from './metrics.constants';

/** The label-bound children of one server, made once so a call does no label lookup. */
interface ServerSeries {
  duration: Histogram.Internal<'server'>;
  outputBytes: Histogram.Internal<'server'>;
  calls: Map<string, Counter.Internal>;
}

/**
 * Upstream connections, calls and children as Prometheus series (#16 item 10).
 * `tool` is the upstream's own tool name, bounded by the per-server tool cap;
 * `outcome` by the error vocabulary.
 */
@Injectable()
export class UpstreamMetrics implements UpstreamMetricsSink {
  private readonly servers = new Map<string, ServerSeries>();

  constructor(
    @InjectMetric(MCP_UPSTREAM_CONNECT_TOTAL)
    private readonly connects: Counter<'server' | 'outcome'>,
    @InjectMetric(MCP_UPSTREAM_CALLS_TOTAL)
    private readonly calls: Counter<'server' | 'tool' | 'outcome'>,
    @InjectMetric(MCP_UPSTREAM_CALL_DURATION_SECONDS)
    private readonly duration: Histogram<'server'>,
    @InjectMetric(MCP_UPSTREAM_OUTPUT_BYTES)
    private readonly outputSizes: Histogram<'server'>,
    @InjectMetric(MCP_UPSTREAM_STATE) private readonly states: Gauge<'server' | 'state'>,
    @InjectMetric(MCP_UPSTREAM_CHILDREN) private readonly running: Gauge,
  ) {}

  connectAttempt(server: string, outcome: UpstreamConnectOutcome): void {
    this.connects.inc({ server, outcome });
  }

  call(server: string, tool: string, outcome: string, seconds: number): void {
    const series = this.series(server);
    const key = `${tool}\u0000${outcome}`;
    let counter = series.calls.get(key);
    if (!counter) {
      counter = this.calls.labels({ server, tool, outcome });
      series.calls.set(key, counter);
    }
    counter.inc();
    series.duration.observe(seconds);
  }

  outputBytes(server: string, bytes: number): void {
    this.series(server).outputBytes.observe(bytes);
  }

  /** 1 for the current state, 0 for the others, so `== 1` selects a server's state. */
  state(server: string, state: UpstreamState): void {
    for (const each of UPSTREAM_STATES)
      this.states.set({ server, state: each }, each === state ? 1 : 0);
  }

  children(running: number): void {
    this.running.set(running);
  }

  private series(server: string): ServerSeries {
    let series = this.servers.get(server);
    if (!series) {
      series = {
        duration: this.duration.labels({ server }),
        outputBytes: this.outputSizes.labels({ server }),
        calls: new Map(),
      };
      this.servers.set(server, series);
    }
    return series;
  }
}
