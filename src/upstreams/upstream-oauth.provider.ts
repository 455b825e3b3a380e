import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { UpstreamOAuthClient } from './upstream-record';

/** How the gateway names itself to an upstream's authorization server. */
const CLIENT_NAME = 'owlclaw-gateway';

/**
 * The SDK's client credentials provider for one upstream connection: on the upstream's 401 the
 * SDK follows its protected resource metadata to its authorization server and asks for a token
 * whose resource is the upstream, keeps the token in memory, and asks again on the next 401.
 * The credentials are the gateway's own; a client's token never reaches an upstream.
 */
export function upstreamOAuthProvider(client: UpstreamOAuthClient): ClientCredentialsProvider {
  return new ClientCredentialsProvider({
    clientId: client.client_id,
    clientSecret: client.client_secret,
    clientName: CLIENT_NAME,
    ...(client.scope === undefined ? {} : { scope: client.scope }),
    ...(client.issuer === undefined ? {} : { expectedIssuer: client.issuer }),
  });
}
