import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiNotFoundResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Reflector } from '@nestjs/core';
import { ADMIN_BEARER_SCHEME, ADMIN_ROUTE_PREFIX } from './admin.constants';
import { AdminTokenGuard } from './admin-token.guard';

/** Marks an admin controller: the OpenAPI document describes the modules that declare one. */
export const AdminControllerMarker = Reflector.createDecorator<true>();

/**
 * A controller under /admin: bearer-token guarded (404 while
 * MCP_SERVER_ADMIN_TOKEN is unset, 401 on a wrong token) and documented as such.
 * Every admin controller uses this instead of @Controller.
 */
export function AdminController(path: string, tag: string): ClassDecorator {
  return applyDecorators(
    AdminControllerMarker(true),
    Controller(path ? `${ADMIN_ROUTE_PREFIX}/${path}` : ADMIN_ROUTE_PREFIX),
    UseGuards(AdminTokenGuard),
    ApiTags(tag),
    ApiBearerAuth(ADMIN_BEARER_SCHEME),
    ApiUnauthorizedResponse({ description: 'Missing or wrong admin bearer token' }),
    ApiNotFoundResponse({
      description: 'The admin API is disabled (MCP_SERVER_ADMIN_TOKEN is not set)',
    }),
  );
}
