import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import { IncomingMessage, ServerResponse } from 'node:http';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { sendHttpError } from './http-reply';
import { canonicalHostName, isLoopbackBind, loopbackHostNames } from '../../common/loopback-bind';

/**
 * DNS-rebinding defence from the MCP spec: a browser page on a foreign origin
 * must not reach the gateway, and a gateway bound to any loopback address only
 * answers to the local names, its own address and http.allowed_hosts. Refusals are 403 with a JSON-RPC error body. The Host
 * check runs on every route (McpFrontDoor calls admitHost before any
 * routing); the Origin check on the MCP routes.
 */
@Injectable()
export class OriginMiddleware implements NestMiddleware {
  private readonly allowedOrigins: Set<string>;
  private readonly checkHost: boolean;
  private readonly allowedHosts: Set<string>;
  private readonly loopbackHosts: Set<string>;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.allowedOrigins = new Set(config.http.cors.allowed_origins);
    this.checkHost = isLoopbackBind(config.http.host);
    this.allowedHosts = new Set(config.http.allowed_hosts.map((h) => h.toLowerCase()));
    this.loopbackHosts = loopbackHostNames(config.http.host);
  }

  use(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    if (this.admit(req, res)) next();
  }

  /** True when the request may go on; false with the 403 already written. */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.admitHost(req, res)) return false;
    const origin = req.headers.origin;
    const host = (req.headers.host ?? '').toLowerCase();
    if (origin !== undefined && !this.isAllowedOrigin(origin, host)) {
      sendHttpError(
        res,
        403,
        `Forbidden: Origin "${origin}" is not allowed (http.cors.allowed_origins)`,
      );
      return false;
    }
    return true;
  }

  /** The Host check alone, for every route of a loopback-bound gateway; false with the 403 written. */
  admitHost(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.checkHost) return true;
    const host = (req.headers.host ?? '').toLowerCase();
    if (this.isAllowedHost(host)) return true;
    sendHttpError(
      res,
      403,
      `Forbidden: Host "${host}" is not allowed for a loopback-bound gateway`,
    );
    return false;
  }

  isAllowedOrigin(origin: string, host: string): boolean {
    if (this.allowedOrigins.has(origin)) return true;
    try {
      // Same-origin is fine only under a Host name the gateway trusts: a DNS-rebinding page
      // sends its own name as both Origin and Host, which must not count as same-origin.
      return new URL(origin).host.toLowerCase() === host && this.isAllowedHost(host);
    } catch {
      return false;
    }
  }

  private isAllowedHost(host: string): boolean {
    if (this.allowedHosts.has(host)) return true;
    const hostname = host.startsWith('[')
      ? host.slice(0, host.indexOf(']') + 1)
      : host.split(':')[0];
    if (this.loopbackHosts.has(hostname) || this.allowedHosts.has(hostname)) return true;
    // Another spelling of an accepted name ([0:0::1], 127.1) is read as a browser would write it.
    const canonical = canonicalHostName(hostname);
    return (
      canonical !== undefined &&
      canonical !== hostname &&
      (this.loopbackHosts.has(canonical) || this.allowedHosts.has(canonical))
    );
  }
}
