import { Global, Module } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import type { GatewayConfig } from '../../config/gateway-config';
import type { OtelRequestTracer } from './otel-request.tracer';
import { RequestTracer } from './request-tracer';
import { UntracedRequestTracer } from './untraced-request.tracer';

/** Gives every module the request tracer; which one depends on the tracing config. */
@Global()
@Module({
  providers: [
    {
      provide: RequestTracer,
      // Optional: a module graph built without the gateway config (a unit test) traces nothing.
      inject: [{ token: GATEWAY_CONFIG, optional: true }],
      useFactory: (config?: GatewayConfig): RequestTracer =>
        config?.tracing.enabled
          ? new (loadOtelTracer())(config.tracing)
          : new UntracedRequestTracer(),
    },
  ],
  exports: [RequestTracer],
})
export class TracingModule {}

/** The OpenTelemetry SDK is loaded only when tracing is on: a gateway without it is spared its memory. */
function loadOtelTracer(): typeof OtelRequestTracer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load needs a synchronous require
  return (require('./otel-request.tracer') as typeof import('./otel-request.tracer'))
    .OtelRequestTracer;
}
