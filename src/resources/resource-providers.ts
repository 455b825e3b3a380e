import { Injectable } from '@nestjs/common';
import { GatewayError } from '../errors/gateway.error';
import { SessionRegistry } from '../session/session.registry';
import {
  ResolvedResource,
  ResourceEntry,
  ResourceProvider,
  ResourceTemplateEntry,
} from './resource-provider';
import { ResourceSubscriptions } from './resource-subscriptions';
import { SkillResourceProvider } from './skill-resource.provider';

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/**
 * Every ResourceProvider of the gateway, the skills catalog first. The
 * resources/* methods ask here: lists merge all providers in registration
 * order, a URI goes to the provider of its scheme. Capability modules inject
 * this service and register their providers while the application starts.
 */
@Injectable()
export class ResourceProviders {
  private readonly providers: ResourceProvider[] = [];
  private readonly byScheme = new Map<string, ResourceProvider>();

  constructor(
    skills: SkillResourceProvider,
    private readonly sessions: SessionRegistry,
    private readonly subscriptions: ResourceSubscriptions,
  ) {
    this.register(skills);
  }

  /** Throws (stopping the start-up) when a scheme is malformed or already served. */
  register(provider: ResourceProvider): void {
    for (const scheme of provider.schemes) {
      if (!/^[a-z][a-z0-9+.-]*$/.test(scheme)) {
        throw new Error(`Resource provider "${provider.name}": invalid URI scheme "${scheme}"`);
      }
      const existing = this.byScheme.get(scheme);
      if (existing) {
        throw new Error(
          `URI scheme "${scheme}" is served by resource providers "${existing.name}" and "${provider.name}"`,
        );
      }
    }
    for (const scheme of provider.schemes) this.byScheme.set(scheme, provider);
    this.providers.push(provider);
    // Clients already connected learn that there is more to list (none are at start-up).
    this.sessions.broadcast('notifications/resources/list_changed');
  }

  /** The direct resources of every provider, skills first. */
  list(): ResourceEntry[] {
    return this.providers.flatMap((provider) => provider.list());
  }

  templates(): ResourceTemplateEntry[] {
    return this.providers.flatMap((provider) => provider.templates());
  }

  /** The provider of the URI's scheme and what it names; -32602 when no provider serves the scheme. */
  resolve(uri: string): { provider: ResourceProvider; resource: ResolvedResource } {
    const scheme = SCHEME.exec(uri)?.[1];
    const provider = scheme === undefined ? undefined : this.byScheme.get(scheme.toLowerCase());
    if (!provider) {
      const served = [...this.byScheme.keys()].map((s) => `${s}://`).join(', ');
      throw GatewayError.invalidParams(
        scheme === undefined
          ? `Invalid resource URI: missing a scheme (served: ${served})`
          : `Invalid resource URI: unsupported scheme "${scheme}" (served: ${served})`,
        { uri, schemes: [...this.byScheme.keys()] },
      );
    }
    return { provider, resource: provider.resolve(uri) };
  }

  /**
   * notifications/resources/updated to every session subscribed to exactly
   * this URI; the number told. With shared sessions each replica tells the
   * sessions whose stream it holds, so a provider reports a change on every
   * replica that sees it (each watches its own source, as the skills do).
   */
  resourceUpdated(uri: string): number {
    return this.subscriptions.notifyUpdated((subscribed) => subscribed === uri);
  }

  /** notifications/resources/list_changed to every session. */
  listChanged(): number {
    return this.sessions.broadcast('notifications/resources/list_changed');
  }
}
