import { ExecutionContext } from '@nestjs/common';
import { InstanceSlot } from '../common/object-slot';
import { RPC_CONTEXT_TYPE } from '../json-rpc/json-rpc.constants';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { McpRequestContext } from '../json-rpc/mcp-request-context';

/** A tools/call, resources/read or prompts/get about to run: the calls governance meters. */
export interface GovernedCall {
  readonly kind: 'tool' | 'resource' | 'prompt';
  /** Tool name, resource URI or prompt name, as the client sent it. */
  readonly target: string;
  readonly clientId: string;
  readonly context: McpRequestContext;
}

const GOVERNED_METHODS: Readonly<Record<string, { kind: GovernedCall['kind']; param: string }>> = {
  'tools/call': { kind: 'tool', param: 'name' },
  'resources/read': { kind: 'resource', param: 'uri' },
  'prompts/get': { kind: 'prompt', param: 'name' },
};

/**
 * The governed call behind an execution context, or undefined for anything
 * else (HTTP routes, other MCP methods, or a call too malformed to name its
 * target, which the handler then answers with -32602).
 */
export function governedCallOf(context: ExecutionContext): GovernedCall | undefined {
  if (context.getType<string>() !== RPC_CONTEXT_TYPE) return undefined;
  const rpc = context.switchToRpc();
  const mcp = rpc.getContext<McpRequestContext | undefined>();
  if (!mcp) return undefined;
  // Four guards ask per call; the answer cannot change while the call runs.
  const known = resolved.get(mcp);
  if (known !== undefined) return known ?? undefined;
  const call = describeCall(mcp, rpc.getData<JsonRpcParams | undefined>());
  resolved.set(mcp, call ?? null);
  return call;
}

/** On a request context: its governed call, or null for one that is not governed. */
const resolved = new InstanceSlot<GovernedCall | null>('governedCall');

function describeCall(
  mcp: McpRequestContext,
  params: JsonRpcParams | undefined,
): GovernedCall | undefined {
  const method = GOVERNED_METHODS[mcp.method];
  if (!method) return undefined;
  const target = params?.[method.param];
  if (typeof target !== 'string' || target.length === 0) return undefined;
  return { kind: method.kind, target, clientId: mcp.clientId, context: mcp };
}
