import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { makeGaugeProvider } from '@willsoto/nestjs-prometheus';
import { makeTalliedCounterProviders } from '../observability/counter-tally';
import { LedgerModule } from '../ledger/ledger.module';
import { AdminApiRegistration, GOVERNANCE_API_MODULE } from './admin/admin-api.registration';
import { GovernanceAdminController } from './admin/governance-admin.controller';
import { GovernanceStatsService } from './admin/governance-stats.service';
import { BudgetGuard } from './budget/budget.guard';
import { MonthlySpend } from './budget/monthly-spend';
import { spendStoreProvider } from './budget/spend-store.provider';
import { GovernanceDecisions } from './governance-decisions';
import { BUDGET_SPEND, GOVERNANCE_DECISIONS_TOTAL } from './governance.constants';
import { GovernanceMetrics } from './governance.metrics';
import { GovernedCallState } from './governed-call.state';
import { GovernedPrompts } from './governed-prompts';
import { GovernedTools } from './governed-tools';
import { ApiKeys } from './identity/api-keys';
import { ClientIdentityResolver } from './identity/client-identity.resolver';
import { ClientPermissionGuard } from './identity/client-permission.guard';
import { QuotaPolicy } from './quota/quota.policy';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import {
  rateLimitOptionsProvider,
  rateLimitStorageProvider,
} from './rate-limit/rate-limit.providers';
import { GovernanceRedis } from './redis/governance-redis';
import { RedisHealthIndicator } from './redis/redis.health';
import { ConfigFileReloader } from './rules/config-file.reloader';
import { GovernanceRules } from './rules/governance-rules';
import { GovernanceRulesUpdater } from './rules/governance-rules.updater';
import { GovernanceRulesValidator } from './rules/governance-rules.validator';
import { RulesBroadcast } from './rules/rules.broadcast';
import { RulesChangeNotifier } from './rules/rules-change.notifier';
import { StoreFailurePolicy } from './store-failure.policy';
import { VisibilityGuard } from './visibility/visibility.guard';
import { VisibilityPolicy } from './visibility/visibility.policy';

/**
 * Client identity, visibility, budgets and rate limits around every
 * tools/call, resources/read and prompts/get, plus the governance admin API.
 *
 * Global because the HTTP transports (identity), the tools and resources
 * lists (visibility) and the health checks (Redis) consume it without
 * importing it. The guards run in the order of the seed (§3.4.1), after the
 * API-key permission check: visibility, budget, rate limit.
 */
@Global()
@Module({
  imports: [LedgerModule, TerminusModule],
  controllers: [GovernanceAdminController],
  providers: [
    GovernanceRules,
    GovernanceRulesValidator,
    GovernanceRulesUpdater,
    RulesBroadcast,
    ConfigFileReloader,
    RulesChangeNotifier,
    GovernanceRedis,
    RedisHealthIndicator,
    ApiKeys,
    ClientIdentityResolver,
    VisibilityPolicy,
    QuotaPolicy,
    GovernedTools,
    GovernedPrompts,
    GovernedCallState,
    GovernanceDecisions,
    GovernanceMetrics,
    StoreFailurePolicy,
    spendStoreProvider,
    MonthlySpend,
    rateLimitOptionsProvider,
    rateLimitStorageProvider,
    GovernanceStatsService,
    AdminApiRegistration,
    { provide: GOVERNANCE_API_MODULE, useFactory: () => GovernanceModule },
    ...makeTalliedCounterProviders({
      name: GOVERNANCE_DECISIONS_TOTAL,
      help: 'Governance decisions on tools/call and resources/read, by decision and reason',
      labelNames: ['decision', 'reason'],
    }),
    makeGaugeProvider({
      name: BUDGET_SPEND,
      help: 'Spend of each client in the current UTC month (budget units); client="other" is the highest spend among the clients past metrics.client_label_limit',
      labelNames: ['client'],
    }),
    // Registration order is execution order.
    { provide: APP_GUARD, useClass: ClientPermissionGuard },
    { provide: APP_GUARD, useClass: VisibilityGuard },
    { provide: APP_GUARD, useClass: BudgetGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ],
  exports: [
    VisibilityPolicy,
    QuotaPolicy,
    ClientIdentityResolver,
    GovernanceRules,
    RedisHealthIndicator,
  ],
})
export class GovernanceModule {}
