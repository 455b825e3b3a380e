import { Inject, Injectable, OnModuleInit, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ADMIN_API_MODULES } from '../../admin/admin.constants';

/** Token of the governance module class (a factory: the class is still being defined when its decorator runs). */
export const GOVERNANCE_API_MODULE = Symbol('GOVERNANCE_API_MODULE');

/**
 * Adds the governance module to the modules the admin OpenAPI document
 * describes (ADMIN_API_MODULES), so /admin/openapi.json lists the
 * governance endpoints beside the ledger's. The document is built on first
 * request, after every module has initialised.
 */
@Injectable()
export class AdminApiRegistration implements OnModuleInit {
  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(GOVERNANCE_API_MODULE) private readonly governanceModule: Type,
  ) {}

  onModuleInit(): void {
    let modules: unknown;
    try {
      modules = this.moduleRef.get(ADMIN_API_MODULES, { strict: false });
    } catch {
      return; // No admin module in this graph: no document to appear in.
    }
    if (Array.isArray(modules) && !modules.includes(this.governanceModule)) {
      modules.push(this.governanceModule);
    }
  }
}
