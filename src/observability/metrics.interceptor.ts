import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, tap } from 'rxjs';
import { RpcErrorReply } from '../json-rpc/json-rpc-exception.filter';
import { RPC_CONTEXT_TYPE } from '../json-rpc/json-rpc.constants';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { McpMetrics } from './mcp.metrics';
import { outcomeOfCode } from './outcome';

/** Counts and times every MCP method call; HTTP routes are left alone. */
@Injectable()
export class MetricsInterceptor implements NestInterceptor {
  constructor(private readonly metrics: McpMetrics) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType<string>() !== RPC_CONTEXT_TYPE) return next.handle();
    const { method } = context.switchToRpc().getContext<McpRequestContext>();
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    return next.handle().pipe(
      tap({
        next: (value) =>
          this.metrics.recordRequest(
            method,
            value instanceof RpcErrorReply ? outcomeOfCode(value.error.code) : 'success',
            seconds(),
          ),
        error: (err: unknown) =>
          this.metrics.recordRequest(method, outcomeOfCode(codeOf(err)), seconds()),
      }),
    );
  }
}

function codeOf(err: unknown): number {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'number'
    ? err.code
    : 0;
}
