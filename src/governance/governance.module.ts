import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { getOptionsToken, getStorageToken } from '@nestjs/throttler';
import { makeCounterProvider } from '@willsoto/nestjs-prometheus';
import { LedgerReadyGuard } from '../ledger/ledger-ready.guard';
import { LedgerModule } from '../ledger/ledger.module';
import { PromptRegistryModule } from '../prompts/prompt-registry.module';
import { ToolRegistryModule } from '../tools/tool-registry.module';
import { GovernanceAdminController } from './admin/governance-admin.controller';
import { GovernanceStatsService } from './admin/governance-stats.service';
import { BudgetUsageMetrics } from './budget/budget-usage.metrics';
import { BudgetGuard } from './budget/budget.guard';
import { MonthlySpend } from './budget/monthly-spend';
import { spendStoreProvider } from './budget/spend-store.provider';
import { GovernanceDecisions } from './governance-decisions';
import { GOVERNANCE_DECISIONS_TOTAL } from './governance.constants';
import { GovernanceMetrics } from './governance.metrics';
import { GovernedCallState } from './governed-call.state';
import { GovernedPrompts } from './governed-prompts';
import { GovernedTools } from './governed-tools';
import { ClientPermissionGuard } from './identity/client-permission.guard';
import { IdentityModule } from './identity/identity.module';
import { QuotaPolicy } from './quota/quota.policy';
import {
  rateLimitOptionsProvider,
  rateLimitStorageProvider,
} from './rate-limit/rate-limit.providers';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { GovernanceRedis } from './redis/governance-redis';
import { RedisHealthIndicator } from './redis/redis.health';
import { RedisUpMetric } from './redis/redis-up.metric';
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
 * Client identity, visibility, budgets and rate limits, plus the governance
 * admin API. @Governed() binds GovernanceGuard to each governed method (built
 * in that method's module); the steps it runs are provided here.
 *
 * Global because the HTTP transports (identity), the lists (visibility), the
 * health checks (Redis) and every @Governed() method's guards consume it
 * without importing it; the exports are what those guards need.
 */
@Global()
@Module({
  imports: [LedgerModule, ToolRegistryModule, PromptRegistryModule, TerminusModule, IdentityModule],
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
    VisibilityPolicy,
    QuotaPolicy,
    GovernedTools,
    GovernedPrompts,
    GovernedCallState,
    GovernanceDecisions,
    GovernanceMetrics,
    BudgetUsageMetrics,
    RedisUpMetric,
    StoreFailurePolicy,
    spendStoreProvider,
    MonthlySpend,
    rateLimitOptionsProvider,
    rateLimitStorageProvider,
    GovernanceStatsService,
    ClientPermissionGuard,
    LedgerReadyGuard,
    VisibilityGuard,
    BudgetGuard,
    RateLimitGuard,
    makeCounterProvider({
      name: GOVERNANCE_DECISIONS_TOTAL,
      help: 'Governance decisions on tools/call and resources/read, by decision and reason',
      labelNames: ['decision', 'reason'],
    }),
  ],
  exports: [
    VisibilityPolicy,
    IdentityModule,
    GovernanceRules,
    RedisHealthIndicator,
    // Shared sessions use the same connection.
    GovernanceRedis,
    // For the @Governed() guard:
    ClientPermissionGuard,
    LedgerReadyGuard,
    VisibilityGuard,
    BudgetGuard,
    RateLimitGuard,
    GovernanceDecisions,
    GovernedTools,
    GovernedPrompts,
    GovernedCallState,
    QuotaPolicy,
    MonthlySpend,
    StoreFailurePolicy,
    getOptionsToken(),
    getStorageToken(),
  ],
})
export class GovernanceModule {}
