/**
 * What the official MCP conformance suite (@modelcontextprotocol/conformance)
 * asks a server to serve, spelled once for the fixture pack and the tests that
 * check it. Test-only: never part of the gateway's default content.
 */

/** A real 1x1 red PNG (8-bit RGB). */
export const TEST_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC';

/** A real WAV file: RIFF/WAVE, PCM, mono, 8 kHz, 16-bit, one silent sample. */
export const TEST_WAV_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==';

export const SIMPLE_TEXT = 'This is a simple text response for testing.';
export const ERROR_TEXT = 'This tool intentionally returns an error for testing';
export const EMBEDDED_RESOURCE = {
  uri: 'test://embedded-resource',
  mimeType: 'text/plain',
  text: 'This is an embedded resource content.',
};
export const MIXED_RESOURCE = {
  uri: 'test://mixed-content-resource',
  mimeType: 'application/json',
  text: JSON.stringify({ test: 'data', value: 123 }),
};
export const LOG_MESSAGES = [
  'Tool execution started',
  'Tool processing data',
  'Tool execution completed',
] as const;
export const PROGRESS_STEPS = [0, 50, 100] as const;
/** The pause between log messages and between progress steps. */
export const STEP_DELAY_MS = 50;
/** How long test_reconnection runs on after closing its stream. */
export const RECONNECTION_DELAY_MS = 100;
export const RECONNECTION_TEXT =
  'Reconnection test completed: the result arrived after the stream was closed mid-call.';

export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
/**
 * The SEP-1613 / SEP-2106 tool's input schema: `$schema`, `$defs` (with an
 * `$anchor`), `$ref`, `additionalProperties`, the composition (`allOf`,
 * `anyOf`) and conditional (`if`/`then`/`else`) keywords must survive tools/list.
 */
export const JSON_SCHEMA_TOOL_INPUT = {
  $schema: JSON_SCHEMA_2020_12,
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

export const ELICITATION_SCHEMA = {
  type: 'object',
  properties: {
    username: { type: 'string', description: "User's response" },
    email: { type: 'string', description: "User's email address" },
  },
  required: ['username', 'email'],
};

/** SEP-1034: a default for every primitive type. */
export const ELICITATION_DEFAULTS_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: {
      type: 'string',
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
  required: [],
};

/** SEP-1330: the five enum variants (untitled/titled single, legacy enumNames, untitled/titled multi). */
export const ELICITATION_ENUMS_SCHEMA = {
  type: 'object',
  properties: {
    untitledSingle: {
      type: 'string',
      description: 'Select one option',
      enum: ['option1', 'option2', 'option3'],
    },
    titledSingle: {
      type: 'string',
      description: 'Select one option with titles',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      description: 'Select one option (legacy)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Select multiple options',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Select multiple options with titles',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
  required: [],
};

export const STATIC_TEXT = {
  uri: 'test://static-text',
  mimeType: 'text/plain',
  text: 'This is the content of the static text resource.',
};
export const STATIC_BINARY = { uri: 'test://static-binary', mimeType: 'image/png' };
export const WATCHED_RESOURCE = {
  uri: 'test://watched-resource',
  mimeType: 'text/plain',
  text: 'Watched resource content',
};
export const TEMPLATE_URI = 'test://template/{id}/data';

export const PROMPT_TEXTS = {
  simple: 'This is a simple prompt for testing.',
  embedded: 'Embedded resource content for testing.',
  embeddedFollowUp: 'Please process the embedded resource above.',
  imageFollowUp: 'Please analyze the image above.',
};

/** Elicitation schemas the input-required-result-* scenarios expect (SEP-2322 fixtures). */
export function stringFieldSchema(field: string): Record<string, unknown> {
  return { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] };
}

export const CONFIRM_SCHEMA = {
  type: 'object',
  properties: { ok: { type: 'boolean' } },
  required: ['ok'],
};

/** A sampling/createMessage request with one user text message. */
export function samplingRequest(prompt: string, maxTokens: number): Record<string, unknown> {
  return { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens };
}
