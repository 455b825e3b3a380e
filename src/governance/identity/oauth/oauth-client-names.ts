import { AuthConfig } from '../../../config/gateway-config';
import { TokenRefused } from './verified-token';

/** Joins a namespace and a token's client id; client ids, API-key clients and mapped names never contain it. */
export const CLIENT_NAMESPACE_SEPARATOR = '#';

/**
 * The governance client name of a token's client (quotas, budgets, visibility,
 * the ledger and metrics), so that equal client ids at two issuers are two
 * clients: the name `auth.oauth.issuer_clients` maps it to; else
 * `<namespace>#<client_id>` when several issuers are trusted or the issuer has
 * a namespace (the namespace defaults to the issuer URL); else, for the only
 * issuer, the bare client id, refused when an API-key client or a mapping
 * already owns that name.
 */
export class OAuthClientNames {
  private readonly qualified: boolean;
  private readonly claimed: ReadonlySet<string>;

  constructor(private readonly auth: AuthConfig) {
    const { issuers, issuer_clients } = auth.oauth;
    this.qualified = issuers.length > 1;
    this.claimed = new Set([
      ...auth.api_keys.map((entry) => entry.slice(0, entry.lastIndexOf(':'))),
      ...Object.values(issuer_clients).flatMap((entry) => Object.values(entry.clients)),
    ]);
  }

  nameOf(issuer: string, clientId: string): string {
    const entry = Object.hasOwn(this.auth.oauth.issuer_clients, issuer)
      ? this.auth.oauth.issuer_clients[issuer]
      : undefined;
    if (entry && Object.hasOwn(entry.clients, clientId)) return entry.clients[clientId];
    if (this.qualified || entry?.namespace) {
      return `${entry?.namespace || issuer}${CLIENT_NAMESPACE_SEPARATOR}${clientId}`;
    }
    if (this.claimed.has(clientId)) {
      throw new TokenRefused(
        `the token's client ${clientId} is the name of an API-key or mapped client; map it in auth.oauth.issuer_clients`,
      );
    }
    return clientId;
  }
}
