import { GatewayError } from '../errors/gateway.error';

/** The one answer for a prompt that does not exist or that the client may not see. */
export function unknownPrompt(name: string): GatewayError {
  return GatewayError.invalidParams(`Unknown prompt: ${name}`, { prompt: name });
}
