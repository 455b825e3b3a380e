import { AuthConfig } from './gateway-config';
import { oauthClientNameProblems } from './config-oauth-clients.check';
import { keyLabel, Problem } from './config-problem';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether a mode accepts OAuth access tokens. */
export function acceptsOAuth(mode: AuthConfig['mode']): boolean {
  return mode === 'oauth' || mode === 'oauth_or_api_key';
}

/**
 * The `auth.oauth` keys that depend on each other or on the mode, checked
 * once the schema passed: an OAuth mode needs the resource URI and at least
 * one issuer, and authorization servers are reached over https (plain http
 * only on loopback, where tests and local identity providers run).
 */
export function oauthConfigProblems(
  auth: AuthConfig,
  originOf: (keyPath: readonly string[]) => string | undefined,
): Problem[] {
  if (!acceptsOAuth(auth.mode)) return [];
  const problems: Problem[] = [];
  const problem = (keyPath: string[], message: string) =>
    problems.push({ subject: keyLabel(keyPath), message, origin: originOf(keyPath) });
  const { oauth } = auth;
  const needed = `is required when ${keyLabel(['auth', 'mode'])} is ${auth.mode}`;

  if (oauth.resource === '') problem(['auth', 'oauth', 'resource'], needed);
  else {
    const reason = urlProblem(oauth.resource);
    if (reason) problem(['auth', 'oauth', 'resource'], reason);
    else if (new URL(oauth.resource).hash !== '') {
      problem(['auth', 'oauth', 'resource'], 'must not have a fragment (RFC 8707)');
    }
  }
  if (oauth.issuers.length === 0) problem(['auth', 'oauth', 'issuers'], `${needed} (at least one)`);
  oauth.issuers.forEach((issuer, index) => {
    const reason = urlProblem(issuer);
    if (reason) problem(['auth', 'oauth', 'issuers', String(index)], reason);
  });
  oauthClientNameProblems(oauth, problem);

  const { introspection } = oauth;
  if (introspection.enabled) {
    const when = `is required when ${keyLabel(['auth', 'oauth', 'introspection', 'enabled'])} is true`;
    if (introspection.client_id === '')
      problem(['auth', 'oauth', 'introspection', 'client_id'], when);
    if (introspection.client_secret_ref === '') {
      problem(['auth', 'oauth', 'introspection', 'client_secret_ref'], when);
    }
    if (introspection.issuer !== '' && !oauth.issuers.includes(introspection.issuer)) {
      problem(
        ['auth', 'oauth', 'introspection', 'issuer'],
        `must be one of ${keyLabel(['auth', 'oauth', 'issuers'])}`,
      );
    }
  }
  return problems;
}

/** Why a URL is not an https URL (or http on loopback), or undefined when it is. */
function urlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return 'must be an https:// URL (http:// only on a loopback host)';
}
