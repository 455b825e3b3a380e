import { errors, type ClientLike } from 'oidc-provider';
import type { AuthorizationServerOptions } from './authorization-server.options';

/** Where the headless interaction handler is mounted (`/interaction/<uid>`). */
export const INTERACTION_PATH = '/interaction/';

/**
 * oidc-provider settings for the tests' authorization server: the OAuth 2.1 features an MCP
 * client meets (code + PKCE S256, client credentials, open registration, introspection, refresh)
 * with access tokens bound to the configured resources.
 */
export function oidcProviderConfiguration(options: AuthorizationServerOptions): object {
  const resourceScopes = Object.values(options.resources).flatMap(({ scope }) => scope.split(' '));
  const signingAlg = options.keys[0]?.alg ?? 'RS256';
  return {
    jwks: { keys: options.keys },
    // OAuth 2.1: the code flow only, no implicit grant.
    responseTypes: ['code'],
    scopes: ['openid', 'offline_access', ...new Set(resourceScopes)],
    clients: (options.clients ?? []).map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      ...(client.scope === undefined ? {} : { scope: client.scope }),
    })),
    // ID tokens are signed like access tokens, so a key set without RSA (say ES256 only) works too.
    clientDefaults: { id_token_signed_response_alg: signingAlg },
    // Signed cookies carry the interaction state; a fixed key is enough for a test server.
    cookies: { keys: ['oauth-test-cookie-key'] },
    findAccount: (_ctx: unknown, accountId: string) => ({
      accountId,
      claims: () => ({ sub: accountId }),
    }),
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => INTERACTION_PATH + interaction.uid,
    },
    pkce: { methods: ['S256'], required: () => true },
    // Any client allowed the grant gets a refresh token, not only those asking for offline_access.
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(grant: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: options.accessTokenTtlSeconds ?? 3600,
      ClientCredentials: options.accessTokenTtlSeconds ?? 3600,
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: {
        enabled: true,
        // A confidential client (the gateway's) may introspect any token; a public one only its own.
        allowedPolicy: (
          _ctx: unknown,
          caller: { clientAuthMethod: string; clientId: string },
          token: { clientId?: string },
        ) => caller.clientAuthMethod !== 'none' || token.clientId === caller.clientId,
      },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) =>
          oneOf ?? options.defaultResource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string, client: ClientLike) => {
          const server = options.resources[resource];
          if (!server) throw new errors.InvalidTarget(`unknown resource ${resource}`);
          return {
            scope: allowedScope(server.scope, client.scope),
            accessTokenFormat: server.format ?? 'jwt',
            jwt: { sign: { alg: signingAlg } },
          };
        },
      },
    },
  };
}

/** A client registered with `scope` only gets those of the resource's scopes. */
function allowedScope(resourceScope: string, clientScope: string | undefined): string {
  if (clientScope === undefined) return resourceScope;
  const allowed = new Set(clientScope.split(' '));
  return resourceScope
    .split(' ')
    .filter((scope) => allowed.has(scope))
    .join(' ');
}
