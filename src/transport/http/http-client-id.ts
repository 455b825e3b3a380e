import { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import { GatewayError } from '../../errors/gateway.error';

const CLIENT_ID_PATTERN = /^[A-Za-z0-9._:@/-]{1,128}$/;

/**
 * Whose X-Forwarded-For counts: a proxy on this host (Express's `trust proxy`
 * is set to the same), so that behind a local load balancer the client is the
 * address it forwards, and nobody else can claim an address.
 */
const TRUST_LOOPBACK_PROXY = proxyAddr.compile('loopback');

/**
 * Who is calling, for quotas and the ledger: the X-MCP-Client-ID header when
 * given (validated), else the peer address. API keys arrive with governance.
 */
export function resolveHttpClientId(req: IncomingMessage): string {
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
  return `ip:${peerAddress(req)}`;
}

function peerAddress(req: IncomingMessage): string {
  // proxy-addr reads the socket's address; a socket already gone has none.
  if (req.socket.remoteAddress === undefined) return 'unknown';
  return proxyAddr(req, TRUST_LOOPBACK_PROXY);
}
