import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** Resolves with the McpError a call failed with; fails the test if it succeeded. */
export async function rpcError(call: Promise<unknown>): Promise<McpError> {
  try {
    const result = await call;
    throw new Error(`expected a JSON-RPC error, got a result: ${JSON.stringify(result)}`);
  } catch (err) {
    if (err instanceof McpError) return err;
    throw err;
  }
}

/** The `data` of a JSON-RPC error, empty when it has none. */
export function errorData(err: McpError): Record<string, unknown> {
  return (err.data ?? {}) as Record<string, unknown>;
}
