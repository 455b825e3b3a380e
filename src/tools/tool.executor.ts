import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { RequestAbort } from '../common/request-abort';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { ToolResult } from './content';
import { HandlerContext } from './handler-context';
import { progressTokenOf, ProgressReporter } from './progress.reporter';
import { RegisteredTool } from './registered-tool';
import { ToolResultMapper } from './tool-result.mapper';

const CLIENT_REQUEST_TIMEOUT_MS = 300_000;

/**
 * Runs one validated tool call: timeout and cancellation through one
 * AbortSignal, progress, cost reporting, and the mapping of the outcome to a
 * result or a gateway error.
 */
@Injectable()
export class ToolExecutor {
  private readonly logger = new Logger(ToolExecutor.name);
  private readonly results = new ToolResultMapper();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  async execute(tool: RegisteredTool, args: unknown, rpc: McpRequestContext): Promise<ToolResult> {
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
    rpc.call.executed = true;
    const progress = new ProgressReporter(rpc, progressTokenOf(rpc));
    progress.startHeartbeat(this.config.tools.progress_interval_seconds * 1000, Date.now());
    try {
      const value = await abort.race(tool.execute(args, this.handlerContext(tool, rpc, progress)));
      return this.results.toResult(tool, value);
    } catch (err) {
      throw this.toGatewayError(tool, err, abort);
    } finally {
      clearTimeout(timer);
      progress.stop();
    }
  }

  private handlerContext(
    tool: RegisteredTool,
    rpc: McpRequestContext,
    progress: ProgressReporter,
  ): HandlerContext {
    const capabilities = rpc.session.clientCapabilities;
    const askClient = async (
      capability: string,
      method: string,
      params: Record<string, unknown>,
    ) => {
      if (capabilities[capability] === undefined) {
        throw new GatewayError(
          ErrorCode.ExecutionError,
          `The client did not declare the ${capability} capability`,
          {
            data: { capability },
          },
        );
      }
      return (await rpc.request(method, params, CLIENT_REQUEST_TIMEOUT_MS)) as Record<
        string,
        unknown
      >;
    };
    return {
      toolName: tool.name,
      clientId: rpc.clientId,
      requestId: rpc.requestId,
      sessionId: rpc.session.id,
      traceId: rpc.traceId,
      // A getter: the AbortSignal is made only for handlers that use it.
      get signal() {
        return rpc.signal;
      },
      progress: (done, total, message) => progress.report(done, total, message),
      log: (level, data) => void rpc.log(level, data, tool.name),
      reportCost: (amount) => {
        if (Number.isFinite(amount) && amount >= 0) rpc.call.cost = amount;
      },
      sample: (params) => askClient('sampling', 'sampling/createMessage', params),
      elicit: (params) => askClient('elicitation', 'elicitation/create', params),
      closeStream: () => rpc.closeStream?.() ?? false,
    };
  }

  /** Timeouts and cancellations win over whatever the handler threw while stopping. */
  private toGatewayError(tool: RegisteredTool, err: unknown, abort: RequestAbort): unknown {
    if (abort.aborted) return abort.reason;
    if (err instanceof GatewayError) return err;
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
