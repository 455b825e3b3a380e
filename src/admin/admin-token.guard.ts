import {
  CanActivate,
  ExecutionContext,
  Injectable,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { Request } from 'express';
import { BearerToken } from '../common/bearer-token';

export const ADMIN_TOKEN_ENV = 'MCP_SERVER_ADMIN_TOKEN';

/**
 * The admin API exists only when MCP_SERVER_ADMIN_TOKEN is set (404 otherwise,
 * so a gateway without it does not even reveal the routes); every request
 * needs `Authorization: Bearer <token>` (401 otherwise, compared in constant time).
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected = BearerToken.fromEnv(ADMIN_TOKEN_ENV);

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) throw new NotFoundException();
    const header = context.switchToHttp().getRequest<Request>().headers.authorization;
    if (!this.expected.matches(header)) {
      throw new UnauthorizedException('A valid admin bearer token is required');
    }
    return true;
  }
}
