import { AuthorizationServerUnavailable, fetchJsonObject } from './bounded-fetch';

/** What the gateway needs from an authorization server's metadata (RFC 8414 / OpenID Discovery). */
export interface AuthorizationServerMetadata {
  issuer: string;
  jwksUri: string;
  introspectionEndpoint?: string;
}

/**
 * The metadata document URLs to try for an issuer, in the order the MCP
 * authorization chapter gives: RFC 8414 with the path inserted after the
 * well-known prefix, OpenID Connect Discovery inserted, then appended.
 */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  const origin = url.origin;
  if (path === '') {
    return [
      `${origin}/.well-known/oauth-authorization-server`,
      `${origin}/.well-known/openid-configuration`,
    ];
  }
  return [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${origin}/.well-known/openid-configuration${path}`,
    `${origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * The issuer's metadata from the first document that answers. The document
 * must name the same issuer (RFC 8414 section 3.3), so that one server
 * cannot pass itself off as another.
 */
export async function discoverAuthorizationServer(
  issuer: string,
): Promise<AuthorizationServerMetadata> {
  const failures: string[] = [];
  for (const url of metadataUrls(issuer)) {
    let document: Record<string, unknown>;
    try {
      document = await fetchJsonObject(url, { headers: { accept: 'application/json' } });
    } catch (err) {
      failures.push((err as Error).message);
      continue;
    }
    if (document.issuer !== issuer) {
      throw new AuthorizationServerUnavailable(
        `${url} names issuer ${JSON.stringify(document.issuer)}, not ${issuer}`,
      );
    }
    if (typeof document.jwks_uri !== 'string') {
      throw new AuthorizationServerUnavailable(`${url} has no jwks_uri`);
    }
    const introspection = document.introspection_endpoint;
    return {
      issuer,
      jwksUri: document.jwks_uri,
      introspectionEndpoint: typeof introspection === 'string' ? introspection : undefined,
    };
  }
  throw new AuthorizationServerUnavailable(
    `no metadata for issuer ${issuer}: ${failures.join('; ')}`,
  );
}
