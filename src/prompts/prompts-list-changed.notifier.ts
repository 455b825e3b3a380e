import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { SessionRegistry } from '../session/session.registry';
import { PromptRegistry } from './prompt.registry';

/** Tells every connected session when the prompt list changed (relayed upstream prompts come and go). */
@Injectable()
export class PromptsListChangedNotifier implements OnModuleInit, OnModuleDestroy {
  private unsubscribe?: () => void;

  constructor(
    private readonly registry: PromptRegistry,
    private readonly sessions: SessionRegistry,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.registry.onChange(() =>
      this.sessions.broadcast('notifications/prompts/list_changed'),
    );
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }
}
