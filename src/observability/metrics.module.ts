import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import {
  makeCounterProvider,
  makeGaugeProvider,
  makeHistogramProvider,
  PrometheusModule,
} from '@willsoto/nestjs-prometheus';
import { McpMetrics } from './mcp.metrics';
import { MetricsInterceptor } from './metrics.interceptor';
import {
  MCP_REQUEST_DURATION_SECONDS,
  MCP_REQUESTS_TOTAL,
  MCP_SESSIONS_ACTIVE,
} from './metrics.constants';

@Global()
@Module({
  imports: [PrometheusModule.register({ path: '/metrics', defaultMetrics: { enabled: true } })],
  providers: [
    makeCounterProvider({
      name: MCP_REQUESTS_TOTAL,
      help: 'MCP requests by method and outcome',
      labelNames: ['method', 'outcome'],
    }),
    makeHistogramProvider({
      name: MCP_REQUEST_DURATION_SECONDS,
      help: 'Time spent in MCP method handlers, guards and interceptors included',
      labelNames: ['method'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120, 300],
    }),
    makeGaugeProvider({
      name: MCP_SESSIONS_ACTIVE,
      help: 'Open MCP sessions by transport',
      labelNames: ['transport'],
    }),
    McpMetrics,
    { provide: APP_INTERCEPTOR, useClass: MetricsInterceptor },
  ],
  exports: [McpMetrics],
})
export class MetricsModule {}
