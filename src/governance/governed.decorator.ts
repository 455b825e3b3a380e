import { applyDecorators, UseGuards } from '@nestjs/common';
import { GovernanceGuard } from './governance.guard';
import { GovernedMarker, GovernedOptions } from './governed-call';

/**
 * Puts an MCP method under governance. GovernanceGuard runs its steps in this
 * order: an API-key client check, the ledger's readiness, visibility, the
 * budget reservation, the rate limits; the first refusal is the answer
 * (-32003, -32001/-32002/-32602 for what the client may not see), and the
 * audit trail records it like any other outcome.
 */
export function Governed(options: GovernedOptions): MethodDecorator {
  return applyDecorators(GovernedMarker(options), UseGuards(GovernanceGuard));
}
