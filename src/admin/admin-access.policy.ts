import { BearerToken } from '../common/bearer-token';
import { MIN_BEARER_SECRET_CHARS } from '../common/bearer-secret.policy';
import { acceptsOAuth } from '../config/config-oauth.check';
import { AuthConfig } from '../config/gateway-config';
import { ADMIN_ROUTE_PREFIX, ADMIN_TOKEN_ENV } from './admin.constants';

/** Who may call /admin; with neither credential the admin API is off and answers 404. */
export interface AdminAccess {
  /** MCP_SERVER_ADMIN_TOKEN, held as its hash. */
  token?: BearerToken;
  /** `auth.oauth.admin_scope`, in a mode that accepts OAuth access tokens. */
  scope?: string;
}

/**
 * Whether the admin API is on, decided once for the guard and the start-up
 * log alike; throws when the token is too short to be safe.
 */
export function adminAccess(auth: AuthConfig, env: NodeJS.ProcessEnv = process.env): AdminAccess {
  const scope = acceptsOAuth(auth.mode) && auth.oauth.admin_scope !== '';
  return {
    token: BearerToken.fromEnv(ADMIN_TOKEN_ENV, env),
    scope: scope ? auth.oauth.admin_scope : undefined,
  };
}

/** True when someone may call /admin at all. */
export function adminApiOn(access: AdminAccess): boolean {
  return access.token !== undefined || access.scope !== undefined;
}

/**
 * The start-up log line of an HTTP gateway: a gateway without the admin API
 * still logs its /admin routes as mapped, so this line says whether they
 * answer and how to turn them on (never the token itself).
 */
export function adminApiStartLine(access: AdminAccess, auth: AuthConfig): Record<string, unknown> {
  const path = `/${ADMIN_ROUTE_PREFIX}`;
  if (!adminApiOn(access)) {
    const orScope = acceptsOAuth(auth.mode) ? ', or auth.oauth.admin_scope,' : '';
    return {
      msg: 'admin API off',
      how: `set ${ADMIN_TOKEN_ENV} (${MIN_BEARER_SECRET_CHARS}+ characters, e.g. from owlclaw mcp-server keys create)${orScope} to serve ${path}`,
    };
  }
  const credentials = [
    ...(access.token ? [ADMIN_TOKEN_ENV] : []),
    ...(access.scope ? [`access token with scope ${access.scope}`] : []),
  ];
  return { msg: 'admin API on', path, credentials };
}
