import { VerifiedToken } from './oauth/verified-token';

/** Who sent one request: the client governance meters, and the access token's identity when one was used. */
export interface CallerIdentity {
  clientId: string;
  /** Set for OAuth callers; API-key, header and stdio callers have none. */
  token?: VerifiedToken;
}

/**
 * What a session is bound to at initialize: the client, and for OAuth the
 * issuer and subject, so that another identity's token cannot ride on the
 * session id (a refreshed token of the same identity can).
 */
export function sessionOwnerOf(caller: CallerIdentity): string {
  const { token } = caller;
  return token ? `${caller.clientId}\n${token.issuer}\n${token.subject}` : caller.clientId;
}
