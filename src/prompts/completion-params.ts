import { GatewayError } from '../errors/gateway.error';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';

export type CompletionRef =
  { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** `completion/complete` params, checked. */
export interface CompletionParams {
  ref: CompletionRef;
  argument: { name: string; value: string };
  /** Arguments (or template variables) the user already filled in. */
  context: Record<string, string>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every malformed part is a -32602 naming the field. */
export function parseCompletionParams(params: JsonRpcParams): CompletionParams {
  return {
    ref: parseRef(params.ref),
    argument: parseArgument(params.argument),
    context: parseContext(params.context),
  };
}

function parseRef(ref: unknown): CompletionRef {
  if (!isObject(ref)) throw invalid('params.ref must be an object', 'ref');
  if (ref.type === 'ref/prompt') {
    if (typeof ref.name !== 'string' || ref.name.length === 0) {
      throw invalid('ref.name must be a prompt name', 'ref.name');
    }
    return { type: 'ref/prompt', name: ref.name };
  }
  if (ref.type === 'ref/resource') {
    if (typeof ref.uri !== 'string' || ref.uri.length === 0) {
      throw invalid('ref.uri must be a resource template URI', 'ref.uri');
    }
    return { type: 'ref/resource', uri: ref.uri };
  }
  throw invalid(
    `ref.type must be ref/prompt or ref/resource, got ${JSON.stringify(ref.type) ?? 'nothing'}`,
    'ref.type',
  );
}

function parseArgument(argument: unknown): CompletionParams['argument'] {
  if (!isObject(argument))
    throw invalid('params.argument must be an object {name, value}', 'argument');
  if (typeof argument.name !== 'string' || argument.name.length === 0) {
    throw invalid('argument.name must be a non-empty string', 'argument.name');
  }
  if (typeof argument.value !== 'string') {
    throw invalid('argument.value must be a string', 'argument.value');
  }
  return { name: argument.name, value: argument.value };
}

function parseContext(context: unknown): Record<string, string> {
  if (context === undefined) return {};
  if (!isObject(context)) throw invalid('params.context must be an object', 'context');
  const args = context.arguments;
  if (args === undefined) return {};
  if (!isObject(args))
    throw invalid('context.arguments must be an object of strings', 'context.arguments');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (typeof value !== 'string') {
      throw invalid(`context.arguments.${name} must be a string`, `context.arguments.${name}`);
    }
    out[name] = value;
  }
  return out;
}

function invalid(message: string, field: string): GatewayError {
  return GatewayError.invalidParams(message, { field });
}
