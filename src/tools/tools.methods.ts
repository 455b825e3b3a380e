import { Injectable } from '@nestjs/common';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { Governed } from '../governance/governed.decorator';
import { McpMethod } from '../json-rpc/mcp-method.decorator';
import { McpContext, McpParams } from '../json-rpc/mcp-params.decorator';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { ToolResult } from './content';
import { paginate } from './list-cursor';
import { RegisteredTool } from './registered-tool';
import { ToolLimitHints } from './tool-limit-hints';
import { ToolListCache, ToolListEntry } from './tool-list.cache';
import { ToolVisibility } from './tool-visibility';
import { ToolExecutor } from './tool.executor';
import { TaskStarted } from './task-started.signal';
import { TaskLauncher } from '../tasks/task.launcher';
import { ToolRegistry } from './tool.registry';
import { TOOLS_PAGE_SIZE } from './tools.constants';

/** `tools/list` and `tools/call`; the list filters with the same VisibilityPolicy the call's guard uses. */
@Injectable()
export class ToolsMethods {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly cache: ToolListCache,
    private readonly visibility: ToolVisibility,
    private readonly executor: ToolExecutor,
    private readonly limitHints: ToolLimitHints,
    private readonly tasks: TaskLauncher,
  ) {}

  @McpMethod('tools/list')
  list(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    const visible: Array<{ tool: RegisteredTool; entry: ToolListEntry }> = [];
    for (const [name, cached] of this.cache.entries()) {
      const tool = this.registry.get(name);
      if (!tool || !this.visibility.isVisible(tool, ctx.clientId, ctx.token?.scopes)) continue;
      const { withSkill } = cached;
      // A linked skill's text only for a client that may read that skill.
      const mayRead = withSkill && this.visibility.mayReadSkill(withSkill.skillUri, ctx.clientId);
      visible.push({ tool, entry: mayRead ? withSkill.entry : cached.entry });
    }
    const page = paginate(visible, params.cursor, TOOLS_PAGE_SIZE);
    // Limits only on the page sent: they are the one per-client part of an entry.
    const tools = page.items.map(({ tool, entry }) =>
      this.limitHints.annotate(entry, tool, ctx.clientId),
    );
    return page.nextCursor === undefined ? { tools } : { tools, nextCursor: page.nextCursor };
  }

  @McpMethod('tools/call', { audited: true, limitedParams: ['arguments'] })
  @Governed({ kind: 'tool', target: 'name' })
  async call(
    @McpParams() params: JsonRpcParams,
    @McpContext() ctx: McpRequestContext,
  ): Promise<ToolResult | Record<string, unknown>> {
    const { name, arguments: args = {} } = params;
    if (typeof name !== 'string' || name.length === 0) {
      throw GatewayError.invalidParams('tools/call needs params.name (a tool name)', {
        field: 'name',
      });
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw GatewayError.invalidParams('params.arguments must be an object', {
        field: 'arguments',
      });
    }
    const tool = this.registry.get(name);
    // Governance's visibility guard judged the tool; one it refused never gets here.
    if (!tool || !ctx.call.visible) {
      throw new GatewayError(ErrorCode.ToolNotFound, `Tool not found: ${name}`, {
        data: { tool: name },
      });
    }
    const validated = await tool.validate(args as Record<string, unknown>);
    if (this.tasks.decide(tool, ctx) === 'sync') return this.executor.execute(tool, validated, ctx);
    if (!tool.options.startsTaskItself) return this.tasks.create(tool, ctx, params);
    return this.runUntilTask(tool, validated, ctx, params);
  }

  /**
   * A handler that starts in the request (asking its questions through
   * input-required rounds) and becomes a task where it calls runAsTask().
   */
  private async runUntilTask(
    tool: RegisteredTool,
    validated: unknown,
    ctx: McpRequestContext,
    params: JsonRpcParams,
  ): Promise<ToolResult | Record<string, unknown>> {
    let created: Record<string, unknown> | undefined;
    ctx.becomeTask = async () => {
      created ??= await this.tasks.create(tool, ctx, params, ctx.inputs?.answersSoFar());
      throw new TaskStarted(created);
    };
    try {
      const result = await this.executor.execute(tool, validated, ctx);
      // A handler that swallowed TaskStarted still answers with its task.
      return created ?? result;
    } catch (err) {
      if (created !== undefined) return created;
      throw err;
    }
  }
}
