import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { untilAborted } from '../common/until-aborted';
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
    // One controller for the call, aborted by the request's signal or the deadline
    // (cheaper per call than a second controller joined with AbortSignal.any).
    const call = new AbortController();
    const cancelled = () => call.abort(rpc.signal.reason);
    if (rpc.signal.aborted) cancelled();
    else rpc.signal.addEventListener('abort', cancelled, { once: true });
    const timer = setTimeout(
      () =>
        call.abort(
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
    const signal = call.signal;
    rpc.call.executed = true;
    const progress = new ProgressReporter(rpc, progressTokenOf(rpc));
    progress.startHeartbeat(this.config.tools.progress_interval_seconds * 1000, Date.now());
    try {
      const value = await untilAborted(
        tool.execute(args, this.handlerContext(tool, rpc, signal, progress)),
        signal,
      );
      return this.results.toResult(tool, value);
    } catch (err) {
      throw this.toGatewayError(tool, err, signal);
    } finally {
      clearTimeout(timer);
      rpc.signal.removeEventListener('abort', cancelled);
      progress.stop();
    }
  }

  private handlerContext(
    tool: RegisteredTool,
    rpc: McpRequestContext,
    signal: AbortSignal,
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
      signal,
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
  private toGatewayError(tool: RegisteredTool, err: unknown, signal: AbortSignal): unknown {
    if (signal.aborted) return signal.reason;
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
