import { isLoopbackBind } from '../../common/loopback-bind';
import { AuthMode } from '../../config/config-auth.schema';

/** What a bind exposes to whoever reaches the gateway's address. */
export interface BindExposure {
  /** `http.host`. */
  host: string;
  authMode: AuthMode;
}

/**
 * The start warning for a gateway bound beyond loopback with `auth.mode: none`,
 * or undefined when none is due. A warning, not a refusal: a container must
 * bind 0.0.0.0, and `docker run -p 8080:8080` is the quick start. An open
 * /metrics has its own warning, from MetricsTokenGuard.
 */
export function anonymousRemoteBindWarning(exposure: BindExposure): string | undefined {
  if (exposure.authMode !== 'none' || isLoopbackBind(exposure.host)) return undefined;
  return (
    `bound to ${exposure.host}, beyond loopback, with auth.mode: none: every client that reaches it ` +
    `is anonymous (X-MCP-Client-ID or its address names it); ` +
    `set auth.mode (api_key, oauth or oauth_or_api_key) or http.host: 127.0.0.1`
  );
}
