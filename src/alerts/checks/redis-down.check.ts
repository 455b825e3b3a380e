import { HEALTH_CHECK_TIMEOUT_MS } from '../../health/health.constants';
import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { GovernanceRedis } from '../../governance/redis/governance-redis';
import { AlertCheck, CheckOutcome } from '../alert-observation';
import { ALERT_LIMITS } from '../alerts.constants';
import { withDeadline } from '../../common/with-deadline';
import { reasonOf } from '../check-failure.reason';

/**
 * With `state.driver: redis`: Redis is not connected or does not answer a
 * ping. Quota counters, spend and shared sessions live there, so governed
 * calls are refused (or let through with governance.fail_open) meanwhile.
 */
@Injectable()
export class RedisDownCheck implements AlertCheck {
  readonly alert = 'redis_down';
  readonly active: boolean;
  private readonly failOpen: boolean;

  constructor(
    private readonly redis: GovernanceRedis,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.active = config.alerts.rules.redis_down.enabled && redis.client !== undefined;
    this.failOpen = config.governance.fail_open;
  }

  async evaluate(): Promise<CheckOutcome> {
    const problem = await this.problem();
    if (problem === undefined) return [];
    const effect = this.failOpen
      ? 'governed calls are let through unmetered (governance.fail_open)'
      : 'governed calls are refused';
    return [
      {
        alert: this.alert,
        severity: 'critical',
        labels: {},
        summary: `Redis (state.redis_url) is unreachable: ${problem}; ${effect} until it answers.`,
      },
    ];
  }

  private async problem(): Promise<string | undefined> {
    const client = this.redis.client;
    if (!client) return undefined;
    if (!this.redis.ready) return `connection ${client.status}`;
    try {
      await withDeadline(() => client.ping(), HEALTH_CHECK_TIMEOUT_MS, 'ping');
      return undefined;
    } catch (err) {
      return `ping failed: ${reasonOf(err, ALERT_LIMITS.maxReasonChars)}`;
    }
  }
}
