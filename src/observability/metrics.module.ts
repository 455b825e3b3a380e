import { Global, Module } from '@nestjs/common';
import {
  makeCounterProvider,
  makeGaugeProvider,
  makeHistogramProvider,
  PrometheusModule,
} from '@willsoto/nestjs-prometheus';
import { McpMetrics } from './mcp.metrics';
import { MetricsController } from './metrics.controller';
import {
  MCP_LIMIT_REFUSALS_TOTAL,
  MCP_REQUEST_DURATION_SECONDS,
  MCP_REQUESTS_TOTAL,
  MCP_SESSIONS_ACTIVE,
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
    McpMetrics,
  ],
  exports: [McpMetrics],
})
export class MetricsModule {}
