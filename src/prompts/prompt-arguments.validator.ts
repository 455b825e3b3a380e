import { GatewayError } from '../errors/gateway.error';
import { PromptOptions } from './prompt-options';

export interface ArgumentError {
  /** The argument name. */
  field: string;
  problems: string[];
}

/**
 * Checks `prompts/get` arguments against the prompt's declaration: every
 * required one present, none undeclared, every value a string. All problems
 * are reported at once as one -32602 naming each argument.
 */
export function validatePromptArguments(
  prompt: PromptOptions,
  raw: unknown,
): Record<string, string> {
  if (raw === undefined || raw === null) return checkRequired(prompt, {}, {});
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw GatewayError.invalidParams('params.arguments must be an object of strings', {
      prompt: prompt.name,
      field: 'arguments',
    });
  }
  const given = raw as Record<string, unknown>;
  const declared = new Set((prompt.arguments ?? []).map((argument) => argument.name));
  const errors: ArgumentError[] = [];
  const args: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    if (!declared.has(name)) errors.push({ field: name, problems: ['unknown argument'] });
    else if (typeof value !== 'string') {
      errors.push({ field: name, problems: [`must be a string, got ${typeOf(value)}`] });
    } else args[name] = value;
  }
  return checkRequired(prompt, given, args, errors);
}

/** Adds a problem per required argument left out, then throws if there is any problem. */
function checkRequired(
  prompt: PromptOptions,
  given: Record<string, unknown>,
  args: Record<string, string>,
  errors: ArgumentError[] = [],
): Record<string, string> {
  for (const argument of prompt.arguments ?? []) {
    if (argument.required === true && !Object.hasOwn(given, argument.name)) {
      errors.push({ field: argument.name, problems: ['required argument is missing'] });
    }
  }
  if (errors.length === 0) return args;
  const summary = errors.map((e) => `${e.field}: ${e.problems.join(', ')}`).join('; ');
  throw GatewayError.invalidParams(`Invalid arguments for prompt ${prompt.name}: ${summary}`, {
    prompt: prompt.name,
    errors,
  });
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}
