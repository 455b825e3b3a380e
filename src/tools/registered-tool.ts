import { HandlerContext } from './handler-context';
import { HandlerOptions, JsonSchemaObject } from './handler-options';

/** One tool as the registry holds it, whatever its source (local handler, upstream server). */
export interface RegisteredTool {
  readonly name: string;
  readonly options: HandlerOptions;
  readonly inputSchema: JsonSchemaObject;
  readonly outputSchema?: JsonSchemaObject;
  /** Where it came from, for duplicate reports and logs (e.g. `OrdersCapability.placeOrder`). */
  readonly origin: string;
  /** For a tool an upstream server serves: that server and the tool's own name there. */
  readonly upstream?: { readonly server: string; readonly tool: string };
  /** Checks and converts raw arguments; throws a -32602 GatewayError naming each failing field. */
  validate(args: Record<string, unknown>): Promise<unknown>;
  /** Runs the tool on validated arguments: its answer, or a promise of it while it works. */
  execute(args: unknown, context: HandlerContext): unknown;
}

/** Client-safe names: major clients reject dots and anything beyond 64 characters. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
