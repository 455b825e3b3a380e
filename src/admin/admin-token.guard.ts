import {
  CanActivate,
  ExecutionContext,
  Injectable,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { timingSafeEqual, createHash } from 'node:crypto';
import { Request } from 'express';

export const ADMIN_TOKEN_ENV = 'MCP_SERVER_ADMIN_TOKEN';

/**
 * The admin API exists only when MCP_SERVER_ADMIN_TOKEN is set (404 otherwise,
 * so a gateway without it does not even reveal the routes); every request
 * needs `Authorization: Bearer <token>` (401 otherwise, compared in constant time).
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor() {
    const token = process.env[ADMIN_TOKEN_ENV];
    this.expected = token ? digest(token) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) throw new NotFoundException();
    const header = context.switchToHttp().getRequest<Request>().headers.authorization ?? '';
    const match = /^Bearer (.+)$/.exec(header);
    if (!match || !timingSafeEqual(digest(match[1]), this.expected)) {
      throw new UnauthorizedException('A valid admin bearer token is required');
    }
    return true;
  }
}

/** Hashing first gives equal-length buffers, as timingSafeEqual requires. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
