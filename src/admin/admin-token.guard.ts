import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Inject,
  Injectable,
  NotFoundException,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import { Request, Response } from 'express';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { AccessTokenVerifier } from '../governance/identity/oauth/access-token.verifier';
import {
  bearerChallenge,
  protectedResourceMetadataUrl,
} from '../governance/identity/oauth/bearer-challenge';
import { TokenRefused } from '../governance/identity/oauth/verified-token';
import { AdminAccess, adminAccess, adminApiOn } from './admin-access.policy';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The admin API exists only when MCP_SERVER_ADMIN_TOKEN is set or, in an
 * OAuth mode, `auth.oauth.admin_scope` is (404 otherwise, so a gateway
 * without either does not even reveal the routes). Every request needs
 * `Authorization: Bearer` with the admin token (compared in constant time)
 * or an access token for this gateway carrying the admin scope: 401 without
 * a valid credential, 403 for a token without the scope.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly access: AdminAccess;
  private readonly metadataUrl?: string;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly tokens: AccessTokenVerifier,
  ) {
    this.access = adminAccess(config.auth);
    if (this.access.scope)
      this.metadataUrl = protectedResourceMetadataUrl(config.auth.oauth.resource);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!adminApiOn(this.access)) throw new NotFoundException();
    const http = context.switchToHttp();
    const header = http.getRequest<Request>().headers.authorization;
    const { token: adminToken, scope } = this.access;
    if (adminToken?.matches(header)) return true;
    const token = BEARER.exec(header ?? '')?.[1];
    if (!scope || token === undefined) {
      throw new UnauthorizedException(
        scope
          ? 'A valid admin bearer token, or an access token with the admin scope, is required'
          : 'A valid admin bearer token is required',
      );
    }
    await this.checkAccessToken(token, scope, http.getResponse<Response>());
    return true;
  }

  private async checkAccessToken(token: string, scope: string, res: Response): Promise<void> {
    const challenge = (params: Parameters<typeof bearerChallenge>[1]) =>
      res.setHeader('WWW-Authenticate', bearerChallenge(this.metadataUrl!, params));
    let scopes: ReadonlySet<string>;
    try {
      scopes = (await this.tokens.verify(token)).scopes;
    } catch (err) {
      if (!(err instanceof TokenRefused)) throw err;
      if (err.unavailable) throw new ServiceUnavailableException(err.description);
      challenge({ error: 'invalid_token', description: err.description, scope });
      throw new UnauthorizedException(`Invalid admin credential: ${err.description}`);
    }
    if (!scopes.has(scope)) {
      challenge({
        error: 'insufficient_scope',
        description: `the admin API needs scope ${scope}`,
        scope,
      });
      throw new ForbiddenException(`The admin API needs an access token with the scope ${scope}`);
    }
  }
}
