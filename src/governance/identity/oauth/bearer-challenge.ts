/** RFC 6750 error codes a protected resource answers with. */
export type BearerError = 'invalid_token' | 'insufficient_scope' | 'invalid_request';

export interface ChallengeParams {
  error?: BearerError;
  description?: string;
  /** Space-separated scopes the request needs. */
  scope?: string;
}

/**
 * Where this resource's metadata lives (RFC 9728 section 3.1): the well-known
 * prefix inserted between the resource URI's origin and its path, so
 * `https://mcp.example.com/mcp` has `https://mcp.example.com/.well-known/oauth-protected-resource/mcp`.
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}

/** A `WWW-Authenticate: Bearer ...` value naming the metadata (RFC 9728 section 5.1) and what went wrong. */
export function bearerChallenge(metadataUrl: string, params: ChallengeParams = {}): string {
  const parts = [`resource_metadata="${quotable(metadataUrl)}"`];
  if (params.error) parts.push(`error="${params.error}"`);
  if (params.description) parts.push(`error_description="${quotable(params.description)}"`);
  if (params.scope) parts.push(`scope="${quotable(params.scope)}"`);
  return `Bearer ${parts.join(', ')}`;
}

/** RFC 6750 limits these values to printable ASCII without `"` and `\`. */
function quotable(value: string): string {
  return value.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, '?');
}
