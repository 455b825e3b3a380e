import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { RPC_CONTEXT_TYPE } from '../json-rpc/json-rpc.constants';
import { McpMethodMarker, McpMethodOptions } from '../json-rpc/mcp-method.decorator';
import { LEDGER_STORE, LedgerStore } from './ledger-store';

/**
 * Refuses an audited call (tools/call, resources/read) before it runs while
 * the ledger cannot record it, so that a tool never acts for a call whose
 * answer can only be an error.
 */
@Injectable()
export class LedgerReadyGuard implements CanActivate {
  private readonly enabled: boolean;

  constructor(
    @Inject(LEDGER_STORE) private readonly store: LedgerStore,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly reflector: Reflector,
  ) {
    this.enabled = config.ledger.enabled;
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.enabled || context.getType<string>() !== RPC_CONTEXT_TYPE) return true;
    const fault = this.store.fault();
    if (!fault) return true;
    const method = this.reflector.get<McpMethodOptions | undefined>(
      McpMethodMarker.KEY,
      context.getHandler(),
    );
    if (!method?.audited) return true;
    throw fault;
  }
}
