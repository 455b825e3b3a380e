import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { isToolResult, looksLikeToolResult, text, ToolResult } from './content';
import { RegisteredTool } from './registered-tool';

/**
 * Turns what a handler returned into a CallToolResult: content blocks pass
 * through; plain values become a JSON text block, plus structuredContent
 * checked against the declared outputSchema.
 */
export class ToolResultMapper {
  private readonly ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
  private readonly validators = new WeakMap<object, ValidateFunction>();

  toResult(tool: RegisteredTool, value: unknown): ToolResult {
    if (isToolResult(value)) {
      if (value.structuredContent !== undefined) this.checkOutput(tool, value.structuredContent);
      return value;
    }
    if (looksLikeToolResult(value)) {
      // Meant as content blocks but incomplete: sending it would break the client's schema.
      throw new GatewayError(
        ErrorCode.ExecutionError,
        `Tool ${tool.name} returned malformed content blocks`,
        {
          data: { tool: tool.name },
        },
      );
    }
    if (tool.outputSchema !== undefined) {
      this.checkOutput(tool, value);
      return {
        content: [text(JSON.stringify(value))],
        structuredContent: value as Record<string, unknown>,
      };
    }
    return { content: [text(typeof value === 'string' ? value : JSON.stringify(value ?? null))] };
  }

  private checkOutput(tool: RegisteredTool, value: unknown): void {
    const schema = tool.outputSchema;
    if (schema === undefined) return;
    let validate = this.validators.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.validators.set(schema, validate);
    }
    if (!validate(value)) {
      // The handler broke its own contract: a server fault, reported without the data itself.
      throw new GatewayError(
        ErrorCode.ExecutionError,
        `Tool ${tool.name} returned output that does not match its outputSchema`,
        {
          data: {
            errors: validate.errors?.map((e) =>
              `${e.instancePath || '/'} ${e.message ?? ''}`.trim(),
            ),
          },
        },
      );
    }
  }
}
