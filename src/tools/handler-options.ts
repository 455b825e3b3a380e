import { Type } from '@nestjs/common';

/** MCP tool annotations (hints to clients, never trusted for security). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** Limits a handler declares for itself; governance may apply stricter ones per client. */
export interface HandlerRateLimits {
  maxCallsPerMinute?: number;
  maxCallsPerDay?: number;
}

export type JsonSchemaObject = Record<string, unknown>;

export interface HandlerOptions {
  /** The tool name; must match ^[a-zA-Z0-9_-]{1,64}$ (clients reject dots). */
  name: string;
  title?: string;
  description: string;
  /** `<category>/<name>` of a skill whose SKILL.md body is appended to the description. */
  skill?: string;
  /** Cost charged when the handler reports none (budget units). */
  estimatedCost?: number;
  /**
   * The most one call may be charged (budget units, at least estimatedCost): a budget reserves it
   * before the call runs and a reported cost above it is charged at it. Without it the client's
   * max_cost_per_call is reserved; a tool that always costs its estimate should declare it equal.
   */
  maxCost?: number;
  /** Expected upper bound of a normal run; a hint for clients and progress heartbeats. */
  maxDurationSeconds?: number;
  /** Hard limit; defaults to tools.default_timeout_seconds. */
  timeoutSeconds?: number;
  /** `hidden` tools are never listed nor callable by clients. */
  visibility?: 'public' | 'hidden';
  annotations?: ToolAnnotations;
  /**
   * A hand-written input schema (JSON Schema 2020-12, `"type": "object"`),
   * published as is in tools/list (`$schema`, `$defs`, `$ref`,
   * `additionalProperties` and every other keyword preserved) and checked with
   * Ajv on tools/call instead of a DTO. The handler then receives the arguments
   * as the client sent them, as a plain object, so its first parameter must not
   * be typed with a DTO class. For schemas no DTO can express; prefer a DTO.
   */
  inputSchema?: JsonSchemaObject;
  /** JSON Schema of structuredContent, or a DTO class to generate it from. */
  outputSchema?: JsonSchemaObject | Type;
  rateLimits?: HandlerRateLimits;
  /**
   * Runs as an MCP task (io.modelcontextprotocol/tasks) for clients that accept tasks:
   * `optional` runs synchronously for the others, `required` refuses them (-32021).
   * A tool without it still runs as a task when maxDurationSeconds exceeds
   * tools.async_threshold_seconds and the client accepts tasks.
   */
  task?: 'optional' | 'required';
  /**
   * The handler starts in the request and calls `ctx.runAsTask()` where the
   * rest should run as a task (after the questions it asks through
   * input-required rounds); without it the task starts before the handler.
   */
  startsTaskItself?: boolean;
}
