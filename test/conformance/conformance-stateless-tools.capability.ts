import { Injectable } from '@nestjs/common';
import { PromptRegistry } from '../../src/prompts/prompt.registry';
import { RegisteredPrompt } from '../../src/prompts/registered-prompt';
import { userMessage } from '../../src/prompts/prompt-message';
import { text, toolResult, ToolResult } from '../../src/tools/content';
import { HandlerContext } from '../../src/tools/handler-context';
import { Capability, Handler } from '../../src/tools/handler.decorator';
import { ToolRegistry } from '../../src/tools/tool.registry';
import { generatedTool } from '../fixtures/tools-fixture.capability';

const DYNAMIC_TOOL = 'test_dynamic_tool';
const DYNAMIC_PROMPT = 'test_dynamic_prompt';

/** Arguments mirrored into `Mcp-Param-*` headers (2026-07-28, SEP-2243). */
export const CUSTOM_HEADERS_INPUT = {
  type: 'object',
  properties: {
    region: {
      type: 'string',
      description: 'Mirrored as Mcp-Param-Region',
      'x-mcp-header': 'Region',
    },
    priority: {
      type: 'integer',
      description: 'Mirrored as Mcp-Param-Priority',
      'x-mcp-header': 'Priority',
    },
    verbose: {
      type: 'boolean',
      description: 'Mirrored as Mcp-Param-Verbose',
      'x-mcp-header': 'Verbose',
    },
    query: { type: 'string', description: 'Not mirrored' },
  },
  required: ['region', 'query'],
};

const dynamicPrompt: RegisteredPrompt = {
  name: DYNAMIC_PROMPT,
  options: {
    name: DYNAMIC_PROMPT,
    description: 'Added and removed by test_trigger_prompt_change.',
  },
  origin: `ConformanceStatelessTools.${DYNAMIC_PROMPT}`,
  render: () => Promise.resolve([userMessage(text('A prompt that comes and goes.'))]),
};

/**
 * The tools the 2026-07-28 scenarios of the conformance suite call besides
 * the earlier revisions' ones: list changes on demand (subscriptions/listen),
 * a tool that logs (no log without a requested level), and one whose
 * arguments travel in `Mcp-Param-*` headers.
 */
@Injectable()
@Capability()
export class ConformanceStatelessTools {
  constructor(
    private readonly tools: ToolRegistry,
    private readonly prompts: PromptRegistry,
  ) {}

  @Handler({
    name: 'test_trigger_tool_change',
    description: `Adds ${DYNAMIC_TOOL}, or removes it when present: tools/list changes.`,
  })
  triggerToolChange(_args: unknown, _ctx: HandlerContext): ToolResult {
    const present = this.tools.get(DYNAMIC_TOOL) !== undefined;
    if (present) this.tools.unregister(DYNAMIC_TOOL);
    else this.tools.register(generatedTool(DYNAMIC_TOOL));
    return toolResult([text(present ? `removed ${DYNAMIC_TOOL}` : `added ${DYNAMIC_TOOL}`)]);
  }

  @Handler({
    name: 'test_trigger_prompt_change',
    description: `Adds ${DYNAMIC_PROMPT}, or removes it when present: prompts/list changes.`,
  })
  triggerPromptChange(_args: unknown, _ctx: HandlerContext): ToolResult {
    const present = this.prompts.get(DYNAMIC_PROMPT) !== undefined;
    this.prompts.replace([DYNAMIC_PROMPT], present ? [] : [dynamicPrompt]);
    return toolResult([text(present ? `removed ${DYNAMIC_PROMPT}` : `added ${DYNAMIC_PROMPT}`)]);
  }

  @Handler({
    name: 'test_logging_tool',
    description: 'Logs three messages (info, warning, error) to a client that asked for them.',
  })
  logging(_args: unknown, ctx: HandlerContext): ToolResult {
    ctx.log('info', 'test_logging_tool started');
    ctx.log('warning', 'test_logging_tool is halfway');
    ctx.log('error', 'test_logging_tool reports an error message (the call succeeds)');
    return toolResult([text('Logged three messages.')]);
  }

  @Handler({
    name: 'test_custom_headers',
    description:
      'Echoes its arguments; region, priority and verbose travel in Mcp-Param-* headers too.',
    inputSchema: CUSTOM_HEADERS_INPUT,
  })
  customHeaders(args: Record<string, unknown>): ToolResult {
    return toolResult([text(`Custom headers tool called with: ${JSON.stringify(args)}`)]);
  }
}
