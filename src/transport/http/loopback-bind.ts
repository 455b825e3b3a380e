const LOOPBACK_BINDS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** True when `http.host` binds the gateway to loopback only, where Host names are checked. */
export function isLoopbackBind(host: string): boolean {
  return LOOPBACK_BINDS.has(host);
}
