import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { isModernVersion } from '../json-rpc/protocol-version';
import { TASKS_EXTENSION } from './tasks.constants';

/** Task ids are 24 base64url characters; anything much longer is not one of ours. */
export const TASK_ID_MAX_CHARS = 128;

/** Whether this request may be answered with a task: 2026-07-28 with the extension in its `_meta`. */
export function acceptsTasks(ctx: McpRequestContext): boolean {
  if (!isModernVersion(ctx.session.protocolVersion)) return false;
  const extensions = ctx.session.clientCapabilities.extensions;
  return (
    typeof extensions === 'object' &&
    extensions !== null &&
    (extensions as Record<string, unknown>)[TASKS_EXTENSION] !== undefined
  );
}

/** -32021 naming the extension, as ext-tasks requires for every refusal of this kind. */
export function tasksCapabilityMissing(what: string): GatewayError {
  return new GatewayError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension declared in the request's _meta client capabilities`,
    { data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } },
  );
}

/** Who may see a task: the same principal a requestState is bound to (session owner and client). */
export function taskPrincipal(ctx: McpRequestContext): string {
  return `${ctx.session.owner}\u0000${ctx.clientId}`;
}
