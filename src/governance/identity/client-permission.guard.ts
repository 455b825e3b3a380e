import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { GovernanceDecisions } from '../governance-decisions';
import { governedCallOf } from '../governed-call';
import { GovernanceRules } from '../rules/governance-rules';
import { ApiKeys } from './api-keys';

/**
 * With `auth.mode: api_key` only clients that hold a key may call tools or
 * read resources. HTTP callers never get here without one (401 first), nor
 * does a stdio process (it refuses to start without a valid MCP_API_KEY);
 * this guard is the last line should a client id without a key reach a call
 * (`forbidden`). Runs first, so a refused caller spends no quota.
 */
@Injectable()
export class ClientPermissionGuard implements CanActivate {
  private readonly apiKeyMode: boolean;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly keys: ApiKeys,
    private readonly rules: GovernanceRules,
    private readonly decisions: GovernanceDecisions,
  ) {
    this.apiKeyMode = config.auth.mode === 'api_key';
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.apiKeyMode || !this.rules.enabled) return true;
    const call = governedCallOf(context);
    if (!call || this.keys.holds(call.clientId)) return true;
    throw this.decisions.deny(
      call,
      'forbidden',
      `Forbidden: client ${call.clientId} holds no API key (auth.mode is api_key)`,
      { retryable: false, remaining: {} },
    );
  }
}
