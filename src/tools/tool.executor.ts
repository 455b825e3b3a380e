import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { isThenable } from '../common/is-thenable';
import { RequestAbort } from '../common/request-abort';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { RequestTracer } from '../observability/tracing/request-tracer';
import { ATTR_MCP_TOOL, SPAN_HANDLER } from '../observability/tracing/span-attributes';
import { ToolResult } from './content';
import { progressTokenOf, ProgressReporter } from './progress.reporter';
import { RegisteredTool } from './registered-tool';
import { ToolHandlerContext } from './tool-handler.context';
import { ToolResultMapper } from './tool-result.mapper';
import { TaskStarted } from './task-started.signal';

/**
 * Runs one validated tool call: timeout and cancellation through one
 * AbortSignal, progress, cost reporting, and the mapping of the outcome to a
 * result or a gateway error.
 */
@Injectable()
export class ToolExecutor {
  private readonly logger = new Logger(ToolExecutor.name);
  private readonly results = new ToolResultMapper();

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly tracer: RequestTracer,
  ) {}

  /** The call is the request's handler step in its trace. */
  execute(tool: RegisteredTool, args: unknown, rpc: McpRequestContext): Promise<ToolResult> {
    return this.tracer.inSpan(SPAN_HANDLER, { [ATTR_MCP_TOOL]: tool.name }, () =>
      this.run(tool, args, rpc),
    );
  }

  private run(tool: RegisteredTool, args: unknown, rpc: McpRequestContext): Promise<ToolResult> {
    const { abort } = rpc;
    rpc.call.executed = true;
    const progress = new ProgressReporter(rpc, progressTokenOf(rpc));
    let answer: unknown;
    try {
      answer = tool.execute(args, new ToolHandlerContext(tool, rpc, progress));
    } catch (err) {
      return Promise.reject(this.toGatewayError(tool, err, abort));
    }
    // A handler that answered at once has nothing left to time out, cancel or report progress on.
    if (!isThenable(answer)) return this.mapped(tool, answer, abort);
    return this.awaited(tool, Promise.resolve(answer), rpc, progress);
  }

  /** A handler still working: its deadline, progress heartbeat and cancellation apply until it answers. */
  private async awaited(
    tool: RegisteredTool,
    answer: Promise<unknown>,
    rpc: McpRequestContext,
    progress: ProgressReporter,
  ): Promise<ToolResult> {
    const timeoutSeconds = tool.options.timeoutSeconds ?? this.config.tools.default_timeout_seconds;
    // The deadline aborts the request itself: its answer is the timeout error, and the
    // handler's signal (the request's) fires as it would on notifications/cancelled.
    const { abort } = rpc;
    const timer = setTimeout(
      () =>
        abort.abort(
          new GatewayError(
            ErrorCode.Timeout,
            `Tool ${tool.name} timed out after ${timeoutSeconds} s`,
            {
              data: { tool: tool.name, timeout_seconds: timeoutSeconds },
            },
          ),
        ),
      timeoutSeconds * 1000,
    );
    progress.startHeartbeat(this.config.tools.progress_interval_seconds * 1000, Date.now());
    try {
      return this.results.toResult(tool, await abort.race(answer));
    } catch (err) {
      throw this.toGatewayError(tool, err, abort);
    } finally {
      clearTimeout(timer);
      progress.stop();
    }
  }

  private mapped(tool: RegisteredTool, value: unknown, abort: RequestAbort): Promise<ToolResult> {
    try {
      return Promise.resolve(this.results.toResult(tool, value));
    } catch (err) {
      return Promise.reject(this.toGatewayError(tool, err, abort));
    }
  }

  /** Timeouts and cancellations win over whatever the handler threw while stopping. */
  private toGatewayError(tool: RegisteredTool, err: unknown, abort: RequestAbort): Error {
    if (abort.reason) return abort.reason;
    if (err instanceof GatewayError || err instanceof TaskStarted) return err;
    const incidentId = randomUUID();
    const error = err instanceof Error ? err : new Error(String(err));
    this.logger.error({
      msg: 'tool failed',
      tool: tool.name,
      incidentId,
      error: error.message,
      stack: error.stack,
    });
    const detail = this.config.dev_mode ? `: ${error.message}` : '';
    return new GatewayError(
      ErrorCode.ExecutionError,
      `Tool ${tool.name} failed (incident ${incidentId})${detail}`,
      {
        data: { tool: tool.name, incident_id: incidentId },
      },
    );
  }
}
