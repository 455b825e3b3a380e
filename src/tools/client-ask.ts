import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { isModernVersion } from '../json-rpc/protocol-version';
import { ClientRequestOptions } from './handler-context';

/** How long a handler's sampling, elicitation or roots request waits for the client. */
const CLIENT_REQUEST_TIMEOUT_MS = 300_000;

/**
 * A question to the calling client on a handler's behalf, if the client
 * declared the capability: a real request on a session, an input request
 * (answered on the retry) on 2026-07-28, where an undeclared capability is
 * -32021 with the capability named as that revision requires.
 */
export async function askClient(
  rpc: McpRequestContext,
  capability: string,
  method: string,
  params: Record<string, unknown>,
  options: ClientRequestOptions = {},
): Promise<Record<string, unknown>> {
  if (rpc.session.clientCapabilities[capability] === undefined) {
    if (isModernVersion(rpc.session.protocolVersion)) {
      throw new GatewayError(
        ErrorCode.MissingRequiredClientCapability,
        `The client did not declare the ${capability} capability this request needs`,
        { data: { requiredCapabilities: { [capability]: {} } } },
      );
    }
    throw new GatewayError(
      ErrorCode.ExecutionError,
      `The client did not declare the ${capability} capability`,
      { data: { capability } },
    );
  }
  const timeoutMs = options.timeoutMs ?? CLIENT_REQUEST_TIMEOUT_MS;
  return (await rpc.request(method, params, timeoutMs, options.inputKey)) as Record<
    string,
    unknown
  >;
}
