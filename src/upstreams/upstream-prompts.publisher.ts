import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type { Prompt } from '@modelcontextprotocol/sdk/types.js';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ServerCapabilities } from '../lifecycle/server-capabilities.service';
import { PromptRegistry } from '../prompts/prompt.registry';
import { PROMPT_NAME_PATTERN, RegisteredPrompt } from '../prompts/registered-prompt';
import { errorChain } from './error-chain';
import { toolNamingOptions } from './tool-naming.options';
import { upstreamRegisteredPrompt } from './upstream-registered-prompt';
import { UPSTREAM_ORIGIN_PREFIX } from './upstream-registered-tool';
import { readAllPages } from './upstream-relay.pages';
import { UpstreamRelayLists } from './upstream-relay.lists';
import { UpstreamRegistryService } from './upstream-registry.service';
import { UpstreamToolNames } from './upstream-tool-names';
import { UpstreamPool } from './upstream.pool';

/**
 * Relays the prompts of every server whose record says `relay.prompts: true`
 * into the PromptRegistry, named like tools (`<namespace><sep><prompt>`, the
 * same 64-character and collision rules), so prompts/list, visibility and
 * the governed prompts/get serve them beside local prompts.
 */
@Injectable()
export class UpstreamPromptsPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Upstream prompts');
  private readonly lists: UpstreamRelayLists<Prompt>;
  private published: string[] = [];
  private running?: Promise<void>;

  constructor(
    registry: UpstreamRegistryService,
    private readonly pool: UpstreamPool,
    private readonly prompts: PromptRegistry,
    private readonly capabilities: ServerCapabilities,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.lists = new UpstreamRelayLists(registry, pool, {
      kind: 'prompts',
      relayed: (record) => record.relay.prompts,
      fetch: async (connection) => {
        const { items, cut } = await connection.request('prompts/list', (client, options) =>
          readAllPages(async (cursor) => {
            const page = await client.listPrompts(cursor ? { cursor } : undefined, options);
            return { items: page.prompts, nextCursor: page.nextCursor };
          }),
        );
        if (cut)
          this.logger.warn({
            msg: 'upstream prompt list cut',
            server_id: connection.record.server_id,
          });
        return items;
      },
      changed: () => this.publish(),
      ttlMs: {
        ok: config.upstreams.tools_cache_ttl_seconds * 1000,
        failed: config.upstreams.tools_cache_failure_ttl_seconds * 1000,
      },
    });
  }

  onApplicationBootstrap(): void {
    if (!this.lists.anyRelayed) return;
    // Relayed prompts come and go with their upstreams, and clients are told.
    this.capabilities.declare('prompts', { listChanged: true });
    this.running = this.lists.start();
  }

  onApplicationShutdown(): void {
    this.lists.stop();
  }

  /** Resolves when the start-up listing is over (for tests). */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** Lists one server's prompts again (coalesced with listings in progress). */
  refresh(serverId: string): Promise<void> {
    return this.lists.refresh(serverId);
  }

  /** Replaces every relayed prompt in one registry change, so clients hear of it once. */
  private publish(): void {
    const wanted = this.wantedPrompts();
    try {
      this.prompts.replace(this.published, wanted);
      this.published = wanted.map((prompt) => prompt.name);
    } catch (error) {
      this.logger.error({ msg: 'upstream prompts not published', error: errorChain(error) });
    }
  }

  private wantedPrompts(): RegisteredPrompt[] {
    const local = this.prompts
      .list()
      .filter((prompt) => !prompt.origin.startsWith(UPSTREAM_ORIGIN_PREFIX));
    const upstreams = [...this.lists.listed.values()].map(({ record, items }) => ({
      record,
      tools: items.map((prompt) => prompt.name),
    }));
    const options = toolNamingOptions(this.config.upstreams);
    // Every prompt of a relaying server is named: allowed_tools speaks of tools only.
    const names = UpstreamToolNames.build(upstreams, local, options, () => true);
    for (const { serverId, tool, reason } of names.refusals) {
      this.logger.warn({
        msg: 'upstream prompt not relayed',
        server_id: serverId,
        prompt: tool,
        reason,
      });
    }
    const byServer = new Map(
      [...this.lists.listed].map(([serverId, { items }]) => [
        serverId,
        new Map(items.map((prompt) => [prompt.name, prompt])),
      ]),
    );
    const wanted: RegisteredPrompt[] = [];
    for (const { name, serverId, tool: promptName } of names.entries()) {
      const listed = this.lists.listed.get(serverId);
      const prompt = byServer.get(serverId)?.get(promptName);
      if (!listed || !prompt) continue;
      // With upstreams.allow_dots a name may hold '.', which prompt names (unlike tool names) never accept.
      const registered = PROMPT_NAME_PATTERN.test(name)
        ? upstreamRegisteredPrompt(listed.record, prompt, name, this.pool)
        : `exposed name "${name}" does not match ${PROMPT_NAME_PATTERN.source}`;
      if (typeof registered === 'string') {
        this.logger.warn({
          msg: 'upstream prompt not relayed',
          server_id: serverId,
          prompt: promptName,
          reason: registered,
        });
      } else wanted.push(registered);
    }
    return wanted;
  }
}
