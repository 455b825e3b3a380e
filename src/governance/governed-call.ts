import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RPC_CONTEXT_TYPE } from '../json-rpc/json-rpc.constants';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { McpRequestContext } from '../json-rpc/mcp-request-context';

export type GovernedKind = 'tool' | 'resource' | 'prompt';

export interface GovernedOptions {
  /** What the call addresses: a tool, a resource or a prompt. */
  kind: GovernedKind;
  /** The params field that names the target (`name`, `uri`). */
  target: string;
}

/** Set by @Governed(); the guards read it to name the call's target. */
export const GovernedMarker = Reflector.createDecorator<GovernedOptions>();

/** A call of a @Governed() method about to run: what governance meters. */
export interface GovernedCall {
  readonly kind: GovernedKind;
  /** Tool name, resource URI or prompt name, as the client sent it. */
  readonly target: string;
  readonly clientId: string;
  readonly context: McpRequestContext;
}

const reflector = new Reflector();

/**
 * The governed call behind an execution context, or undefined when the
 * method is not @Governed() or the call is too malformed to name its target
 * (the method then answers -32602).
 */
export function governedCallOf(context: ExecutionContext): GovernedCall | undefined {
  if (context.getType<string>() !== RPC_CONTEXT_TYPE) return undefined;
  const governed = reflector.get(GovernedMarker, context.getHandler());
  if (!governed) return undefined;
  const rpc = context.switchToRpc();
  const mcp = rpc.getContext<McpRequestContext | undefined>();
  const target = rpc.getData<JsonRpcParams | undefined>()?.[governed.target];
  if (!mcp || typeof target !== 'string' || target.length === 0) return undefined;
  return { kind: governed.kind, target, clientId: mcp.clientId, context: mcp };
}
