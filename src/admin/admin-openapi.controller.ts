import { Get } from '@nestjs/common';
import { ApiExcludeController, OpenAPIObject } from '@nestjs/swagger';
import { AdminController } from './admin-controller.decorator';
import { AdminOpenApiDocument } from './admin-openapi.document';

/**
 * GET /admin/openapi.json. Guarded like the rest of the admin API: a gateway
 * without an admin token does not even reveal which admin routes exist.
 */
@AdminController('', 'meta')
@ApiExcludeController()
export class AdminOpenApiController {
  constructor(private readonly document: AdminOpenApiDocument) {}

  @Get('openapi.json')
  openApi(): OpenAPIObject {
    return this.document.get();
  }
}
