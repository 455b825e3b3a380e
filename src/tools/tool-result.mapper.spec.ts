import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import {
  audio,
  ContentBlock,
  embeddedBlob,
  embeddedText,
  image,
  resourceLink,
  text,
  toolResult,
} from './content';
import { JsonSchemaObject } from './handler-options';
import { RegisteredTool } from './registered-tool';
import { validateNoArguments } from './tool-arguments.validator';
import { ToolResultMapper } from './tool-result.mapper';

function tool(outputSchema?: JsonSchemaObject): RegisteredTool {
  return {
    name: 'spec_tool',
    options: { name: 'spec_tool', description: 'a tool of the mapper spec' },
    origin: 'spec.spec_tool',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema,
    validate: (args) => validateNoArguments('spec_tool', args),
    execute: () => Promise.resolve(undefined),
  };
}

const SUM_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: { sum: { type: 'number' } },
  required: ['sum'],
  additionalProperties: false,
};

function gatewayErrorOf(run: () => unknown): GatewayError {
  try {
    run();
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error('expected a GatewayError, nothing was thrown');
}

describe('ToolResultMapper', () => {
  const mapper = new ToolResultMapper();

  test('a plain value becomes one JSON text block', () => {
    expect(mapper.toResult(tool(), { id: 42, tags: ['a'], nested: { ok: true } })).toEqual({
      content: [{ type: 'text', text: '{"id":42,"tags":["a"],"nested":{"ok":true}}' }],
    });
    expect(mapper.toResult(tool(), 42)).toEqual({ content: [{ type: 'text', text: '42' }] });
    expect(mapper.toResult(tool(), [1, 2])).toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
    expect(mapper.toResult(tool(), null)).toEqual({ content: [{ type: 'text', text: 'null' }] });
    expect(mapper.toResult(tool(), undefined)).toEqual({
      content: [{ type: 'text', text: 'null' }],
    });
  });

  test('any JSON value without an outputSchema round-trips through its text block', () => {
    fc.assert(
      fc.property(
        // An object holding `content` is the content-block shape, tested below.
        fc.jsonValue().filter((v) => typeof v !== 'object' || v === null || !('content' in v)),
        (value) => {
          const result = mapper.toResult(tool(), value);
          expect(result.structuredContent).toBeUndefined();
          expect(result.content).toEqual([
            { type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) },
          ]);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('a string is returned as text, as is (not JSON-quoted)', () => {
    for (const value of ['plain words', '', '{"looks":"like json"}', 'line\nbreak "quoted"']) {
      expect(mapper.toResult(tool(), value)).toEqual({ content: [{ type: 'text', text: value }] });
    }
  });

  test('content blocks pass through unchanged', () => {
    const blocks: ContentBlock[] = [
      text('hello'),
      image(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png'),
      audio('UklGRg==', 'audio/wav'),
      embeddedText('mem://note', 'body'),
      embeddedBlob('mem://blob', Buffer.from('bytes'), 'application/octet-stream'),
      resourceLink({ uri: 'mem://doc', name: 'doc', mimeType: 'text/markdown' }),
    ];
    const returned = toolResult(blocks);
    expect(mapper.toResult(tool(), returned)).toEqual({ content: blocks });

    const flagged = toolResult([text('bad input')], { isError: true });
    expect(mapper.toResult(tool(), flagged)).toEqual({
      content: [{ type: 'text', text: 'bad input' }],
      isError: true,
    });
  });

  test('with an outputSchema, a matching value is structuredContent plus its JSON text', () => {
    expect(mapper.toResult(tool(SUM_SCHEMA), { sum: 5 })).toEqual({
      content: [{ type: 'text', text: '{"sum":5}' }],
      structuredContent: { sum: 5 },
    });
    const explicit = toolResult([text('five')], { structuredContent: { sum: 5 } });
    expect(mapper.toResult(tool(SUM_SCHEMA), explicit)).toEqual(explicit);
  });

  test.each([
    ['wrong type', { sum: 'five' }],
    ['missing property', {}],
    ['extra property', { sum: 5, secret: 'hunter2' }],
    ['not an object', 'hunter2'],
  ])('an outputSchema mismatch (%s) is -32005 without the data', (_label, value) => {
    const err = gatewayErrorOf(() => mapper.toResult(tool(SUM_SCHEMA), value));
    expect(err.code).toBe(ErrorCode.ExecutionError);
    expect(err.message).toContain('outputSchema');
    expect(err.data.errors).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(JSON.stringify({ message: err.message, data: err.data })).not.toContain('hunter2');
  });

  test('structuredContent of a returned result is checked against the outputSchema too', () => {
    const returned = toolResult([text('five')], { structuredContent: { sum: 'five' } });
    const err = gatewayErrorOf(() => mapper.toResult(tool(SUM_SCHEMA), returned));
    expect(err.code).toBe(ErrorCode.ExecutionError);
  });
  test('whatever a handler returns, the result is a valid MCP CallToolResult or a GatewayError', () => {
    const blockType = fc.constantFrom('text', 'image', 'audio', 'resource', 'resource_link');
    // Values that look like content blocks without being complete ones (domain data often does).
    const contentLike = fc.record({
      content: fc.array(
        fc.record(
          {
            type: blockType,
            text: fc.string(),
            data: fc.string(),
            mimeType: fc.string(),
            uri: fc.string(),
            name: fc.string(),
          },
          { requiredKeys: ['type'] },
        ),
        { maxLength: 3 },
      ),
    });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), contentLike), (value) => {
        let result: unknown;
        try {
          result = mapper.toResult(tool(), value);
        } catch (err) {
          expect(err).toBeInstanceOf(GatewayError);
          return;
        }
        expect({ returned: value, valid: CallToolResultSchema.safeParse(result).success }).toEqual({
          returned: value,
          valid: true,
        });
      }),
      { numRuns: 200, examples: [[{ content: [{ type: 'text' }] }]] },
    );
  });
});
