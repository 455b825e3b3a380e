import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { SessionRegistry } from '../../session/session.registry';
import { GovernanceRules } from './governance-rules';

/**
 * New rules may show or hide tools and resources: connected clients are told
 * to list them again.
 */
@Injectable()
export class RulesChangeNotifier implements OnModuleInit, OnModuleDestroy {
  private unsubscribe?: () => void;

  constructor(
    private readonly rules: GovernanceRules,
    private readonly sessions: SessionRegistry,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.rules.onChange(() => {
      this.sessions.broadcast('notifications/tools/list_changed');
      this.sessions.broadcast('notifications/resources/list_changed');
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }
}
