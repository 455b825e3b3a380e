import { Injectable } from '@nestjs/common';
import { IsString } from 'class-validator';
import { setTimeout as delay } from 'node:timers/promises';
import { audio, embeddedText, image, text, toolResult, ToolResult } from '../../src/tools/content';
import { HandlerContext } from '../../src/tools/handler-context';
import { Capability, Handler } from '../../src/tools/handler.decorator';
import {
  ELICITATION_DEFAULTS_SCHEMA,
  ELICITATION_ENUMS_SCHEMA,
  ELICITATION_SCHEMA,
  EMBEDDED_RESOURCE,
  ERROR_TEXT,
  JSON_SCHEMA_TOOL_INPUT,
  LOG_MESSAGES,
  MIXED_RESOURCE,
  PROGRESS_STEPS,
  RECONNECTION_DELAY_MS,
  RECONNECTION_TEXT,
  SIMPLE_TEXT,
  STEP_DELAY_MS,
  TEST_PNG_BASE64,
  TEST_WAV_BASE64,
  CONFIRM_SCHEMA,
  samplingRequest,
  stringFieldSchema,
} from './conformance-fixture.constants';

export class SamplingArgs {
  @IsString()
  prompt!: string;
}

export class ElicitationArgs {
  @IsString()
  message!: string;
}

/** The text of a sampling/createMessage result (MCP puts one content block in `content`). */
function sampledText(result: Record<string, unknown>): string {
  const content = result.content as { type?: unknown; text?: unknown } | undefined;
  return content?.type === 'text' && typeof content.text === 'string'
    ? content.text
    : JSON.stringify(result.content ?? null);
}

/** The accepted content of an elicitation result (empty when declined or cancelled). */
export function elicited(result: Record<string, unknown>): Record<string, unknown> {
  return result.action === 'accept' && typeof result.content === 'object' && result.content !== null
    ? (result.content as Record<string, unknown>)
    : {};
}

function rootCount(result: Record<string, unknown>): number {
  return Array.isArray(result.roots) ? result.roots.length : 0;
}

function elicitationSummary(result: Record<string, unknown>): string {
  return `action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`;
}

/**
 * The tools the conformance suite's server scenarios call, written with the
 * gateway's own @Capability/@Handler API (validation, progress, logging,
 * sampling and elicitation all go through the real executor).
 */
@Injectable()
@Capability()
export class ConformanceToolsCapability {
  @Handler({ name: 'test_simple_text', description: 'Returns one text block.' })
  simpleText(): ToolResult {
    return toolResult([text(SIMPLE_TEXT)]);
  }

  @Handler({ name: 'test_image_content', description: 'Returns a PNG image block.' })
  imageContent(): ToolResult {
    return toolResult([image(TEST_PNG_BASE64, 'image/png')]);
  }

  @Handler({ name: 'test_audio_content', description: 'Returns a WAV audio block.' })
  audioContent(): ToolResult {
    return toolResult([audio(TEST_WAV_BASE64, 'audio/wav')]);
  }

  @Handler({ name: 'test_embedded_resource', description: 'Returns an embedded text resource.' })
  embeddedResource(): ToolResult {
    const { uri, text: body, mimeType } = EMBEDDED_RESOURCE;
    return toolResult([embeddedText(uri, body, mimeType)]);
  }

  @Handler({
    name: 'test_multiple_content_types',
    description: 'Returns text, an image and an embedded resource.',
  })
  multipleContentTypes(): ToolResult {
    const { uri, text: body, mimeType } = MIXED_RESOURCE;
    return toolResult([
      text('Multiple content types test:'),
      image(TEST_PNG_BASE64, 'image/png'),
      embeddedText(uri, body, mimeType),
    ]);
  }

  @Handler({
    name: 'test_tool_with_logging',
    description: 'Sends three info log messages while it runs.',
  })
  async withLogging(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    for (const [i, message] of LOG_MESSAGES.entries()) {
      if (i > 0) await delay(STEP_DELAY_MS, undefined, { signal: ctx.signal });
      ctx.log('info', message);
    }
    return toolResult([text('Tool with logging executed successfully')]);
  }

  @Handler({
    name: 'test_error_handling',
    description: 'Always fails, reporting the failure as a tool error result.',
  })
  errorHandling(): ToolResult {
    return toolResult([text(ERROR_TEXT)], { isError: true });
  }

  @Handler({
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 of 100 when the caller sent a progressToken.',
  })
  async withProgress(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    for (const [i, step] of PROGRESS_STEPS.entries()) {
      if (i > 0) await delay(STEP_DELAY_MS, undefined, { signal: ctx.signal });
      ctx.progress(step, 100, `Completed step ${step} of 100`);
    }
    return toolResult([text('Tool with progress executed successfully')]);
  }

  @Handler({
    name: 'test_sampling',
    description: 'Asks the client to sample an LLM response to the prompt.',
  })
  async sampling(args: SamplingArgs, ctx: HandlerContext): Promise<ToolResult> {
    const result = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }],
      maxTokens: 100,
    });
    return toolResult([text(`LLM response: ${sampledText(result)}`)]);
  }

  @Handler({ name: 'test_elicitation', description: 'Asks the user for a username and email.' })
  async elicitation(args: ElicitationArgs, ctx: HandlerContext): Promise<ToolResult> {
    const result = await ctx.elicit({ message: args.message, requestedSchema: ELICITATION_SCHEMA });
    return toolResult([text(`User response: ${elicitationSummary(result)}`)]);
  }

  @Handler({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Elicits a form whose fields all have defaults (SEP-1034).',
  })
  async elicitationDefaults(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    const result = await ctx.elicit({
      message: 'Please review and update the form fields with defaults',
      requestedSchema: ELICITATION_DEFAULTS_SCHEMA,
    });
    return toolResult([text(`Elicitation completed: ${elicitationSummary(result)}`)]);
  }

  @Handler({
    name: 'test_elicitation_sep1330_enums',
    description: 'Elicits a form with every enum variant (SEP-1330).',
  })
  async elicitationEnums(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    const result = await ctx.elicit({
      message: 'Please select options from the enum fields',
      requestedSchema: ELICITATION_ENUMS_SCHEMA,
    });
    return toolResult([text(`Elicitation completed: ${elicitationSummary(result)}`)]);
  }

  @Handler({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features ($schema, $defs, $ref) (SEP-1613).',
    inputSchema: JSON_SCHEMA_TOOL_INPUT,
  })
  jsonSchema202012(args: Record<string, unknown>): ToolResult {
    return toolResult([text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`)]);
  }

  @Handler({
    name: 'test_reconnection',
    description:
      'Closes its SSE stream mid-call (SEP-1699); the result reaches the client when it reconnects with Last-Event-ID.',
  })
  async reconnection(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    const closed = ctx.closeStream?.() ?? false;
    await delay(RECONNECTION_DELAY_MS, undefined, { signal: ctx.signal });
    return toolResult([
      text(closed ? RECONNECTION_TEXT : 'The stream could not be closed for resumption.'),
    ]);
  }

  // 2026-07-28 multi round-trip requests (input-required-result-* scenarios): each handler asks
  // through the same ctx.elicit/sample/listRoots as on a session; the gateway turns an ask
  // into an input-required result and runs the handler again on the retry.

  @Handler({ name: 'test_input_required_result_elicitation', description: 'Asks the user name.' })
  async inputRequiredElicitation(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    const answer = await ctx.elicit(
      { message: 'What is your name?', requestedSchema: stringFieldSchema('name') },
      { inputKey: 'user_name' },
    );
    return toolResult([text(`Hello, ${String(elicited(answer).name)}!`)]);
  }

  @Handler({ name: 'test_input_required_result_sampling', description: 'Samples one answer.' })
  async inputRequiredSampling(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    const answer = await ctx.sample(samplingRequest('What is the capital of France?', 100), {
      inputKey: 'capital_question',
    });
    return toolResult([text(`LLM response: ${sampledText(answer)}`)]);
  }

  @Handler({ name: 'test_input_required_result_list_roots', description: 'Lists client roots.' })
  async inputRequiredListRoots(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    const roots = await listRoots(ctx, 'client_roots');
    return toolResult([text(`Client roots: ${JSON.stringify(roots.roots ?? [])}`)]);
  }

  @Handler({
    name: 'test_input_required_result_request_state',
    description: 'Asks for a confirmation carried through requestState.',
  })
  async inputRequiredRequestState(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    return confirmed(ctx);
  }

  @Handler({
    name: 'test_input_required_result_tampered_state',
    description: 'Asks for a confirmation; a tampered requestState is refused by the gateway.',
  })
  async inputRequiredTamperedState(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    return confirmed(ctx);
  }

  @Handler({
    name: 'test_input_required_result_multiple_inputs',
    description: 'Asks for a name, a sampled greeting and the roots at once.',
  })
  async inputRequiredMultiple(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    const [name, greeting, roots] = await Promise.all([
      ctx.elicit(
        { message: 'What is your name?', requestedSchema: stringFieldSchema('name') },
        { inputKey: 'user_name' },
      ),
      ctx.sample(samplingRequest('Generate a greeting', 50), { inputKey: 'greeting' }),
      listRoots(ctx, 'client_roots'),
    ]);
    return toolResult([
      text(`${sampledText(greeting)} ${String(elicited(name).name)} (${rootCount(roots)} roots)`),
    ]);
  }

  @Handler({
    name: 'test_input_required_result_multi_round',
    description: 'Asks a name, then a favourite colour, in two rounds.',
  })
  async inputRequiredMultiRound(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    const step1 = await ctx.elicit(
      { message: 'Step 1: What is your name?', requestedSchema: stringFieldSchema('name') },
      { inputKey: 'step1' },
    );
    const step2 = await ctx.elicit(
      {
        message: 'Step 2: What is your favorite color?',
        requestedSchema: stringFieldSchema('color'),
      },
      { inputKey: 'step2' },
    );
    const name = String(elicited(step1).name);
    return toolResult([text(`${name} likes ${String(elicited(step2).color)}`)]);
  }

  @Handler({
    name: 'test_input_required_result_capabilities',
    description: 'Asks only what the client declared: sampling and elicitation are each optional.',
  })
  async inputRequiredCapabilities(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    // An ask the client did not declare fails at once (-32021); the others wait for their answers.
    const [sampled, elicitedName] = await Promise.allSettled([
      ctx.sample(samplingRequest('Say hello', 20), { inputKey: 'sampled' }),
      ctx.elicit(
        { message: 'What is your name?', requestedSchema: stringFieldSchema('name') },
        { inputKey: 'user_name' },
      ),
    ]);
    const parts = [
      sampled.status === 'fulfilled' ? `sampled: ${sampledText(sampled.value)}` : 'no sampling',
      elicitedName.status === 'fulfilled'
        ? `name: ${String(elicited(elicitedName.value).name)}`
        : 'no elicitation',
    ];
    return toolResult([text(parts.join(', '))]);
  }

  @Handler({
    name: 'test_missing_capability',
    description: 'Needs sampling: a client that did not declare it gets -32021.',
  })
  async missingCapability(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    const answer = await ctx.sample(samplingRequest('Say hello', 20));
    return toolResult([text(`LLM response: ${sampledText(answer)}`)]);
  }

  @Handler({
    name: 'test_streaming_elicitation',
    description:
      'Elicits a name: on 2026-07-28 the answer stream carries an input-required result.',
  })
  async streamingElicitation(_args: unknown, ctx: HandlerContext): Promise<ToolResult> {
    const answer = await ctx.elicit({
      message: 'What is your name?',
      requestedSchema: stringFieldSchema('name'),
    });
    return toolResult([text(`Hello, ${String(elicited(answer).name)}!`)]);
  }
}

/** The confirmation fixture: "state-ok" proves the answer came back through requestState. */
async function confirmed(ctx: HandlerContext): Promise<ToolResult> {
  const answer = await ctx.elicit(
    { message: 'Please confirm', requestedSchema: CONFIRM_SCHEMA },
    { inputKey: 'confirm' },
  );
  return toolResult([text(`state-ok: confirmed=${String(elicited(answer).ok)}`)]);
}

function listRoots(ctx: HandlerContext, inputKey: string): Promise<Record<string, unknown>> {
  if (!ctx.listRoots) throw new Error('this gateway cannot list client roots');
  return ctx.listRoots({ inputKey });
}
