import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { SessionRegistry } from '../session/session.registry';
import { ResourceSubscriptions } from './resource-subscriptions';
import { CatalogChange, SkillCatalog } from './skill-catalog';
import { canonicalSkillUri } from './skill-uri';

/**
 * Turns catalog changes into notifications: `list_changed` to every session,
 * `updated` to sessions subscribed to a URI of a changed skill.
 */
@Injectable()
export class ResourcesChangeNotifier implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ResourcesChangeNotifier.name);
  private unsubscribe?: () => void;

  constructor(
    private readonly catalog: SkillCatalog,
    private readonly sessions: SessionRegistry,
    private readonly subscriptions: ResourceSubscriptions,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.catalog.onChange((change) => this.publish(change));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  private publish(change: CatalogChange): void {
    if (change.listChanged) this.sessions.broadcast('notifications/resources/list_changed');
    // Subscriptions keep the client's spelling (notifications use it); matching is on the canonical form.
    const affected = (uri: string) => {
      const canonical = canonicalSkillUri(uri);
      return change.changedSkillUris.some(
        (skillUri) => canonical === skillUri || canonical.startsWith(`${skillUri}/`),
      );
    };
    this.subscriptions.notifyUpdated(affected);
    this.logger.debug({ msg: 'skills changed', skills: change.changedSkillUris });
  }
}
