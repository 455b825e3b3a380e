/**
 * The public API for capability modules: what a module listed in
 * `capabilities.modules` imports to declare tools.
 */
export { Capability, Handler } from './tools/handler.decorator';
export type {
  HandlerOptions,
  HandlerRateLimits,
  ToolAnnotations,
  JsonSchemaObject,
} from './tools/handler-options';
export type { HandlerContext } from './tools/handler-context';
export { ToolError } from './tools/tool.error';
export * from './tools/content';
export * from './tools/schema';
export { GatewayError } from './errors/gateway.error';
export { ErrorCode } from './errors/error-code';
export { Prompt } from './prompts/prompt.decorator';
export type { PromptOptions } from './prompts/prompt-options';
export type { PromptContext } from './prompts/prompt-context';
export * from './prompts/prompt-message';
