import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { SessionRegistry } from '../session/session.registry';
import { ToolRegistry } from './tool.registry';

/** Tells every connected session when the tool list changed (after boot). */
@Injectable()
export class ToolsListChangedNotifier implements OnModuleInit, OnModuleDestroy {
  private unsubscribe?: () => void;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly sessions: SessionRegistry,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.registry.onChange(() =>
      this.sessions.broadcast('notifications/tools/list_changed'),
    );
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }
}
