import { keyLabel } from './config-problem';
import { OAuthConfig } from './gateway-config';

/** A client id, API-key client or governance name: never the namespace separator `#`. */
const CLIENT_NAME = /^[A-Za-z0-9._:@/-]{1,128}$/;
const NAME_RULE = 'must be 1-128 characters of letters, digits and ._:@/-';

/**
 * `auth.oauth.issuers` and `issuer_clients`, checked so that no two issuers'
 * clients can share a name by accident: issuers are distinct, each
 * `issuer_clients` entry names one of them, namespaces differ and every
 * client id and mapped name is a usable client name. Only explicit mappings
 * may put clients of two issuers (or an API-key client) under one name.
 */
export function oauthClientNameProblems(
  oauth: OAuthConfig,
  problem: (keyPath: string[], message: string) => void,
): void {
  const issuersKey = keyLabel(['auth', 'oauth', 'issuers']);
  oauth.issuers.forEach((issuer, index) => {
    const at = ['auth', 'oauth', 'issuers', String(index)];
    if (oauth.issuers.indexOf(issuer) !== index) problem(at, `repeats ${issuer}`);
    if (issuer.includes('#')) problem(at, 'must not contain # (an issuer has no fragment)');
  });
  const namespaces = new Map<string, string>();
  for (const issuer of new Set(oauth.issuers)) {
    const entry = Object.hasOwn(oauth.issuer_clients, issuer)
      ? oauth.issuer_clients[issuer]
      : undefined;
    const namespace = entry?.namespace || issuer;
    const other = namespaces.get(namespace);
    if (other !== undefined) {
      problem(
        ['auth', 'oauth', 'issuer_clients', issuer, 'namespace'],
        `is also the namespace of ${other}: each issuer's clients need their own`,
      );
    }
    namespaces.set(namespace, issuer);
  }
  for (const [issuer, entry] of Object.entries(oauth.issuer_clients)) {
    const at = ['auth', 'oauth', 'issuer_clients', issuer];
    if (!oauth.issuers.includes(issuer)) problem(at, `must be one of ${issuersKey}`);
    if (entry.namespace !== '' && !CLIENT_NAME.test(entry.namespace)) {
      problem([...at, 'namespace'], NAME_RULE);
    }
    for (const [clientId, name] of Object.entries(entry.clients)) {
      const key = [...at, 'clients', clientId];
      if (!CLIENT_NAME.test(clientId)) problem(key, `is not a usable client id: keys ${NAME_RULE}`);
      else if (typeof name !== 'string' || !CLIENT_NAME.test(name)) problem(key, NAME_RULE);
    }
  }
}
