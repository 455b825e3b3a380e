import { Global, Module } from '@nestjs/common';
import {
  makeCounterProvider,
  makeGaugeProvider,
  makeHistogramProvider,
  PrometheusModule,
} from '@willsoto/nestjs-prometheus';
import { McpMetrics } from './mcp.metrics';
import { UpstreamMetrics } from './upstream.metrics';
import { MetricsController } from './metrics.controller';
import {
  MCP_LIMIT_REFUSALS_TOTAL,
  MCP_REQUEST_DURATION_SECONDS,
  MCP_REQUESTS_TOTAL,
  MCP_SESSIONS_ACTIVE,
  MCP_UPSTREAM_CALL_DURATION_SECONDS,
  MCP_UPSTREAM_CALLS_TOTAL,
  MCP_UPSTREAM_CHILDREN,
  MCP_UPSTREAM_CONNECT_TOTAL,
  MCP_UPSTREAM_OUTPUT_BYTES,
  MCP_UPSTREAM_STATE,
} from './metrics.constants';

@Global()
@Module({
  imports: [
    PrometheusModule.register({
      path: '/metrics',
      controller: MetricsController,
      defaultMetrics: { enabled: true },
    }),
  ],
  providers: [
    makeCounterProvider({
      name: MCP_REQUESTS_TOTAL,
      help: 'MCP requests by method and outcome',
      labelNames: ['method', 'outcome'],
    }),
    makeHistogramProvider({
      name: MCP_REQUEST_DURATION_SECONDS,
      help: 'Time spent in MCP methods: guards, interceptors, pipes and the handler',
      labelNames: ['method'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120, 300],
    }),
    makeGaugeProvider({
      name: MCP_SESSIONS_ACTIVE,
      help: 'Open MCP sessions by transport',
      labelNames: ['transport'],
    }),
    makeCounterProvider({
      name: MCP_LIMIT_REFUSALS_TOTAL,
      help: 'Requests refused because they went past a configured limit, by limits.* key',
      labelNames: ['limit'],
    }),
    makeCounterProvider({
      name: MCP_UPSTREAM_CONNECT_TOTAL,
      help: 'Connect attempts to upstream MCP servers by outcome (success, failure, refused by upstreams.max_children)',
      labelNames: ['server', 'outcome'],
    }),
    makeCounterProvider({
      name: MCP_UPSTREAM_CALLS_TOTAL,
      help: 'Upstream tool calls by server, upstream tool name and outcome',
      labelNames: ['server', 'tool', 'outcome'],
    }),
    makeHistogramProvider({
      name: MCP_UPSTREAM_CALL_DURATION_SECONDS,
      help: 'Time of upstream tool calls, waiting for a call slot included',
      labelNames: ['server'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120, 600],
    }),
    makeHistogramProvider({
      name: MCP_UPSTREAM_OUTPUT_BYTES,
      help: 'Bytes of upstream tool results before max_tool_output_bytes cut them',
      labelNames: ['server'],
      buckets: [256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304, 16_777_216],
    }),
    makeGaugeProvider({
      name: MCP_UPSTREAM_STATE,
      help: 'State of each upstream: 1 for the current one of idle, connected, degraded, down',
      labelNames: ['server', 'state'],
    }),
    makeGaugeProvider({
      name: MCP_UPSTREAM_CHILDREN,
      help: 'Stdio upstream children running (upstreams.max_children caps them)',
    }),
    McpMetrics,
    UpstreamMetrics,
  ],
  exports: [McpMetrics, UpstreamMetrics],
})
export class MetricsModule {}
