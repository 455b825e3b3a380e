import { Global, Module } from '@nestjs/common';
import { RequestTracer } from './request-tracer';
import { UntracedRequestTracer } from './untraced-request.tracer';

/** Gives every module the request tracer; which one depends on the tracing config. */
@Global()
@Module({
  providers: [{ provide: RequestTracer, useClass: UntracedRequestTracer }],
  exports: [RequestTracer],
})
export class TracingModule {}
