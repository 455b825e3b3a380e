import { LimitsConfig } from '../config/gateway-config';

export type ResourceUriLimitName =
  'resource_uri_max_chars' | 'resource_uri_max_segments' | 'subscription_uri_max_chars';

export type ResourceUriLimits = Pick<LimitsConfig, ResourceUriLimitName>;

/** The first limit a URI passed, its maximum and what was measured. */
export interface ResourceUriBreach {
  limit: ResourceUriLimitName;
  max: number;
  what: string;
}

/**
 * Measures a client's resource URI against the limits, length first, so that
 * counting segments reads at most `resource_uri_max_chars` characters. A URI
 * the session keeps (`kept`: subscriptions) is held to
 * `subscription_uri_max_chars` as well, and that limit is named first.
 */
export function findResourceUriBreach(
  uri: string,
  limits: ResourceUriLimits,
  kept: boolean,
): ResourceUriBreach | undefined {
  const what = `A resource URI of ${uri.length} characters`;
  if (kept && uri.length > limits.subscription_uri_max_chars) {
    return { limit: 'subscription_uri_max_chars', max: limits.subscription_uri_max_chars, what };
  }
  if (uri.length > limits.resource_uri_max_chars) {
    return { limit: 'resource_uri_max_chars', max: limits.resource_uri_max_chars, what };
  }
  const segments = segmentCount(uri);
  if (segments > limits.resource_uri_max_segments) {
    return {
      limit: 'resource_uri_max_segments',
      max: limits.resource_uri_max_segments,
      what: `A resource URI of ${segments} segments`,
    };
  }
  return undefined;
}

/** The `/`-separated parts after `scheme://` (of the whole URI when it has no `://`). */
export function segmentCount(uri: string): number {
  const authority = uri.indexOf('://');
  let count = 1;
  for (let at = uri.indexOf('/', authority === -1 ? 0 : authority + 3); at !== -1;) {
    count++;
    at = uri.indexOf('/', at + 1);
  }
  return count;
}
