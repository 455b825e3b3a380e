import { UpstreamRecord } from './upstream-record';

/** What every secret-bearing value is shown as. */
export const MASK = '***';

/**
 * The record as the CLI, logs, health and the admin API show it: env and
 * header values, query values and fragment, and the resolved `auth_ref` and
 * `oauth.client_secret_ref` secrets are replaced by MASK, URL user
 * information is dropped; names and references stay readable.
 */
export function masked(record: UpstreamRecord): UpstreamRecord {
  const copy = structuredClone(record);
  if (copy.stdio) copy.stdio.env = maskValues(copy.stdio.env);
  if (copy.http) {
    copy.http.url = maskedUrl(copy.http.url);
    copy.http.headers = maskValues(copy.http.headers);
    if (copy.http.auth_secret !== undefined) copy.http.auth_secret = MASK;
    if (copy.http.oauth) copy.http.oauth.client_secret = MASK;
  }
  return copy;
}

function maskValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(values).map((key) => [key, MASK]));
}

/**
 * Keeps scheme, host, path and query keys (where an operator looks for
 * mistakes); drops the user information and hides what carries tokens.
 */
export function maskedUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return MASK;
  }
  url.username = '';
  url.password = '';
  for (const key of new Set(url.searchParams.keys())) url.searchParams.set(key, MASK);
  if (url.hash !== '') url.hash = MASK;
  return url.toString();
}
