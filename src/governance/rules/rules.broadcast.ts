import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { GovernanceConfig } from '../../config/gateway-config';
import { REDIS_RULES_CHANNEL } from '../governance.constants';
import { GovernanceRedis } from '../redis/governance-redis';
import { GovernanceRules } from './governance-rules';
import { GovernanceRulesValidator } from './governance-rules.validator';

interface RulesMessage {
  origin: string;
  rules: unknown;
}

/**
 * Rules changes fanned out to every replica over a Redis channel (redis
 * mode only), so a reload or an admin PUT on one replica applies to all.
 * Each replica validates what it receives: a bad message changes nothing.
 */
@Injectable()
export class RulesBroadcast implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Governance');
  private readonly origin = randomUUID();
  private readonly channel: string;
  private subscriber?: Redis;

  constructor(
    private readonly redis: GovernanceRedis,
    private readonly rules: GovernanceRules,
    private readonly validator: GovernanceRulesValidator,
  ) {
    this.channel = `${redis.prefix}${REDIS_RULES_CHANNEL}`;
  }

  onModuleInit(): void {
    this.subscriber = this.redis.subscribe(this.channel, (text) => this.receive(text));
  }

  onApplicationShutdown(): void {
    this.subscriber?.disconnect();
  }

  /** True when the change reached Redis (or there is no Redis to reach). */
  async publish(rules: GovernanceConfig): Promise<boolean> {
    const client = this.redis.client;
    if (!client) return true;
    try {
      const message: RulesMessage = { origin: this.origin, rules };
      await client.publish(this.channel, JSON.stringify(message));
      return true;
    } catch (err) {
      this.logger.warn({
        msg: 'rules change not sent to other replicas',
        error: err instanceof Error ? err.message : String(err),
      });
      return false;
    }
  }

  private receive(text: string): void {
    let message: RulesMessage;
    try {
      message = JSON.parse(text) as RulesMessage;
    } catch {
      this.logger.warn({ msg: 'unreadable rules message ignored' });
      return;
    }
    if (message.origin === this.origin) return;
    const result = this.validator.validate(message.rules);
    if (!result.ok) {
      this.logger.warn({
        msg: 'invalid rules from another replica ignored',
        problems: result.problems,
      });
      return;
    }
    this.rules.replace(result.rules, 'replica');
  }
}
