import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { errorChain } from './error-chain';
import { RegistryChange, UpstreamRegistryService } from './upstream-registry.service';
import { UpstreamPromptsPublisher } from './upstream-prompts.publisher';
import { UpstreamResourcesProvider } from './upstream-resources.provider';
import { UpstreamToolsPublisher } from './upstream-tools.publisher';
import { UpstreamPool } from './upstream.pool';

/**
 * Carries each registry change to the pool (reconnect only what changed) and
 * the publishers (relist changed and added servers, drop removed ones' tools,
 * relayed prompts and resources),
 * one change after the other so that two quick edits cannot interleave.
 */
@Injectable()
export class UpstreamRegistryReconciler implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Upstreams');
  private unsubscribe?: () => void;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly registry: UpstreamRegistryService,
    private readonly pool: UpstreamPool,
    private readonly publisher: UpstreamToolsPublisher,
    private readonly prompts: UpstreamPromptsPublisher,
    private readonly resources: UpstreamResourcesProvider,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.registry.onChange((change) => {
      this.chain = this.chain.then(() => this.apply(change));
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** Resolves when every change heard so far has been applied (for the admin API and tests). */
  settled(): Promise<void> {
    return this.chain;
  }

  private async apply({ diff }: RegistryChange): Promise<void> {
    try {
      await this.pool.apply(diff);
      // The start-up listing first: otherwise it could publish a server this change removed.
      await this.publisher.settled();
      const servers = [...diff.added, ...diff.changed, ...diff.removed];
      await this.publisher.refreshServers(servers);
      await Promise.all(
        servers.flatMap((id) => [this.prompts.refresh(id), this.resources.refresh(id)]),
      );
    } catch (error) {
      this.logger.error({ msg: 'upstream registry change not applied', error: errorChain(error) });
    }
  }
}
