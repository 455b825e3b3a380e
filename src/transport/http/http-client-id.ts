import { Request } from 'express';
import { GatewayError } from '../../errors/gateway.error';

const CLIENT_ID_PATTERN = /^[A-Za-z0-9._:@/-]{1,128}$/;

/**
 * Who is calling, for quotas and the ledger: the X-MCP-Client-ID header when
 * given (validated), else the peer address. API keys arrive with governance.
 */
export function resolveHttpClientId(req: Request): string {
  const header = req.headers['x-mcp-client-id'];
  if (header !== undefined) {
    const value = Array.isArray(header) ? header[0] : header;
    if (!CLIENT_ID_PATTERN.test(value)) {
      throw GatewayError.invalidRequest(
        'X-MCP-Client-ID must be 1-128 characters of letters, digits and ._:@/-',
      );
    }
    return value;
  }
  return `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}
