import { GUARDS_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { LedgerReadyGuard } from '../ledger/ledger-ready.guard';
import { RequestTracer } from '../observability/tracing/request-tracer';
import { PromptsMethods } from '../prompts/prompts.methods';
import { ResourcesMethods } from '../resources/resources.methods';
import { ToolsMethods } from '../tools/tools.methods';
import { BudgetGuard } from './budget/budget.guard';
import { GovernanceGuard } from './governance.guard';
import { GovernedMarker } from './governed-call';
import { ClientPermissionGuard } from './identity/client-permission.guard';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { VisibilityGuard } from './visibility/visibility.guard';

const governed = [
  { method: ToolsMethods.prototype.call, marker: { kind: 'tool', target: 'name' } },
  { method: ResourcesMethods.prototype.read, marker: { kind: 'resource', target: 'uri' } },
  { method: PromptsMethods.prototype.get, marker: { kind: 'prompt', target: 'name' } },
];

describe('@Governed()', () => {
  it.each(governed)('puts $marker.kind calls under the governance guard', (g) => {
    expect(Reflect.getMetadata(GUARDS_METADATA, g.method)).toEqual([GovernanceGuard]);
    expect(new Reflector().get(GovernedMarker, g.method)).toEqual(g.marker);
  });

  it('runs the steps in the order of the seed', () => {
    // The constructor's parameters are the steps, in the order it runs them.
    expect(Reflect.getMetadata('design:paramtypes', GovernanceGuard)).toEqual([
      RequestTracer,
      ClientPermissionGuard,
      LedgerReadyGuard,
      VisibilityGuard,
      BudgetGuard,
      RateLimitGuard,
    ]);
  });

  it('leaves the lists ungoverned (they filter with the visibility policy instead)', () => {
    for (const list of [
      ToolsMethods.prototype.list,
      ResourcesMethods.prototype.list,
      PromptsMethods.prototype.list,
    ]) {
      expect(Reflect.getMetadata(GUARDS_METADATA, list)).toBeUndefined();
    }
  });
});
