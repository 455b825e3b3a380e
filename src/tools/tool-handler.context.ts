import { Logger } from '@nestjs/common';
import { JsonRpcId } from '../json-rpc/json-rpc.types';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { LoggingLevel } from '../session/logging-level';
import { askClient } from './client-ask';
import { HandlerContext } from './handler-context';
import { ProgressReporter } from './progress.reporter';
import { RegisteredTool } from './registered-tool';
import { isValidCost } from './tool-cost';

const logger = new Logger('ToolCost');

/**
 * What one tool call's handler gets. A class rather than an object literal,
 * because V8 builds a literal with a getter (`signal`) on its slow path every
 * time (docs/performance.md); here the getter is the prototype's. The
 * functions stay own properties bound to this call, so a handler may
 * destructure them.
 */
export class ToolHandlerContext implements HandlerContext {
  readonly toolName: string;
  readonly clientId: string;
  readonly requestId?: JsonRpcId;
  readonly sessionId: string;
  readonly traceId: string;
  readonly answersByRetry: boolean;
  readonly progress: HandlerContext['progress'];
  readonly log: HandlerContext['log'];
  readonly reportCost: HandlerContext['reportCost'];
  readonly sample: HandlerContext['sample'];
  readonly elicit: HandlerContext['elicit'];
  readonly listRoots: NonNullable<HandlerContext['listRoots']>;
  readonly closeStream: NonNullable<HandlerContext['closeStream']>;
  readonly runAsTask: NonNullable<HandlerContext['runAsTask']>;
  readonly #rpc: McpRequestContext;

  constructor(tool: RegisteredTool, rpc: McpRequestContext, progress: ProgressReporter) {
    this.#rpc = rpc;
    this.toolName = tool.name;
    this.clientId = rpc.clientId;
    this.requestId = rpc.requestId;
    this.sessionId = rpc.session.id;
    this.traceId = rpc.traceId;
    // A 2026-07-28 request answers by retry (its input round); a task waits for tasks/update instead.
    this.answersByRetry = rpc.inputs !== undefined;
    this.progress = (done, total, message) => progress.report(done, total, message);
    this.log = (level: LoggingLevel, data: unknown) => void rpc.log(level, data, tool.name);
    this.reportCost = (amount) => recordReportedCost(rpc, tool.name, amount);
    this.sample = (params, options) =>
      askClient(rpc, 'sampling', 'sampling/createMessage', params, options);
    this.elicit = (params, options) =>
      askClient(rpc, 'elicitation', 'elicitation/create', params, options);
    this.listRoots = (options) => askClient(rpc, 'roots', 'roots/list', {}, options);
    this.closeStream = () => rpc.closeStream?.() ?? false;
    this.runAsTask = () => rpc.becomeTask?.() ?? Promise.resolve();
  }

  /** Made on first use: most handlers never ask for it. */
  get signal(): AbortSignal {
    return this.#rpc.signal;
  }
}

/**
 * A valid cost replaces any earlier report; anything else (negative, NaN,
 * infinite, not a number) is a handler bug: logged, and the call is charged
 * its estimate, so a bad report can neither credit a budget nor escape it.
 */
function recordReportedCost(rpc: McpRequestContext, tool: string, amount: unknown): void {
  if (isValidCost(amount)) {
    rpc.call.cost = amount;
    rpc.call.costReportInvalid = false;
    return;
  }
  rpc.call.cost = undefined;
  rpc.call.costReportInvalid = true;
  logger.warn({
    msg: 'tool reported an invalid cost; the call is charged its estimate',
    tool,
    client: rpc.clientId,
    reported: String(amount),
  });
}
