import { GatewayError } from '../errors/gateway.error';

export interface FieldError {
  /** Dotted path of the failing field, e.g. `items.0.sku`. */
  field: string;
  problems: string[];
}

/** Fields an invalid-arguments error lists; the rest are counted, so the answer stays small. */
export const MAX_LISTED_FIELDS = 20;
const MAX_PROBLEMS_PER_FIELD = 5;
const MAX_TEXT_CHARS = 200;

/**
 * The -32602 for arguments that fail their tool's schema or DTO: the first
 * MAX_LISTED_FIELDS fields with their problems (texts cut to a bounded
 * length), and how many more there are, in the message and in `data.omitted`.
 */
export function invalidArguments(toolName: string, fields: FieldError[], note = ''): GatewayError {
  const listed = fields.slice(0, MAX_LISTED_FIELDS).map((error) => ({
    field: cut(error.field),
    problems: error.problems.slice(0, MAX_PROBLEMS_PER_FIELD).map(cut),
  }));
  const omitted = fields.length - listed.length;
  const summary = listed.map((f) => `${f.field}: ${f.problems.join(', ')}`).join('; ');
  const more = omitted > 0 ? ` (and ${omitted.toLocaleString('en-US')} more)` : '';
  return GatewayError.invalidParams(
    `Invalid arguments for tool ${toolName}: ${note}${summary}${more}`,
    {
      tool: toolName,
      errors: listed,
      ...(omitted > 0 ? { omitted } : {}),
    },
  );
}

function cut(text: string): string {
  return text.length <= MAX_TEXT_CHARS ? text : `${text.slice(0, MAX_TEXT_CHARS)}…`;
}
