import { applyDecorators, UseGuards } from '@nestjs/common';
import { LedgerReadyGuard } from '../ledger/ledger-ready.guard';
import { BudgetGuard } from './budget/budget.guard';
import { GovernedMarker, GovernedOptions } from './governed-call';
import { ClientPermissionGuard } from './identity/client-permission.guard';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { VisibilityGuard } from './visibility/visibility.guard';

/**
 * Puts an MCP method under governance. The guards run in this order: an
 * API-key client check, the ledger's readiness, visibility, the budget
 * reservation, the rate limits; the first refusal is the answer (-32003,
 * -32001/-32002/-32602 for what the client may not see), and the audit trail
 * records it like any other outcome.
 */
export function Governed(options: GovernedOptions): MethodDecorator {
  return applyDecorators(
    GovernedMarker(options),
    UseGuards(
      ClientPermissionGuard,
      LedgerReadyGuard,
      VisibilityGuard,
      BudgetGuard,
      RateLimitGuard,
    ),
  );
}
