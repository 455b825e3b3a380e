import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { ADMIN_API_MODULES } from './admin.constants';
import { AdminOpenApiController } from './admin-openapi.controller';
import { AdminOpenApiDocument } from './admin-openapi.document';
import { AdminTokenGuard } from './admin-token.guard';
import { LedgerAdminController } from './ledger-admin.controller';

/**
 * The admin HTTP API under /admin. To add endpoints: write a controller
 * decorated with @AdminController(path, tag) (guard and OpenAPI security
 * come with it), list it in `controllers` and import the module providing
 * what it injects. It then appears in GET /admin/openapi.json as well.
 */
@Module({
  imports: [LedgerModule],
  controllers: [LedgerAdminController, AdminOpenApiController],
  providers: [
    AdminTokenGuard,
    AdminOpenApiDocument,
    // A factory: the class does not exist yet while its own decorator is evaluated.
    { provide: ADMIN_API_MODULES, useFactory: () => [AdminModule] },
  ],
  exports: [AdminTokenGuard],
})
export class AdminModule {}
