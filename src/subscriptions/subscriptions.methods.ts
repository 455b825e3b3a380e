import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { limitExceeded } from '../errors/limit-exceeded';
import { McpMethod } from '../json-rpc/mcp-method.decorator';
import { McpContext, McpParams } from '../json-rpc/mcp-params.decorator';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { JsonRpcParams } from '../json-rpc/json-rpc.types';
import { isModernVersion } from '../json-rpc/protocol-version';
import { ResourceProviders } from '../resources/resource-providers';
import { ResourceVisibility } from '../resources/resource-visibility';
import { isHoldable } from '../session/message-sink';
import { SessionRegistry } from '../session/session.registry';
import { TaskSubscriptions } from '../tasks/task-subscriptions';
import { ListenFilter, readListenFilter } from './listen-filter';
import { ListeningSink, SUBSCRIPTION_ID_META } from './listening.sink';

/**
 * subscriptions/listen (2026-07-28): one long-lived request whose answer is
 * a stream of the change notifications the client opted in to, in place of
 * the session-based revisions' GET stream and resources/subscribe. The
 * request's session is listed among this replica's sessions while it runs,
 * so every change that reaches sessions reaches it, filtered and tagged.
 */
@Injectable()
export class SubscriptionsMethods {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly sessions: SessionRegistry,
    private readonly providers: ResourceProviders,
    private readonly visibility: ResourceVisibility,
    private readonly tasks: TaskSubscriptions,
  ) {}

  @McpMethod('subscriptions/listen', {
    resourceUris: { paths: ['notifications.resourceSubscriptions'], kept: true },
  })
  async listen(@McpParams() params: JsonRpcParams, @McpContext() ctx: McpRequestContext) {
    const { session, stream, requestId } = ctx;
    // Sessions of the earlier revisions have their GET stream and resources/subscribe instead.
    if (!isModernVersion(session.protocolVersion)) throw GatewayError.methodNotFound(ctx.method);
    const asked = readListenFilter(params);
    const agreed = this.agree(asked, ctx.clientId);
    const taskIds = await this.tasks.agree(asked.taskIds ?? [], ctx);
    if (taskIds.length > 0) agreed.taskIds = taskIds;
    if (stream === undefined || requestId === undefined || !stream.open) {
      throw GatewayError.invalidRequest('subscriptions/listen needs a stream to answer on');
    }
    if (isHoldable(stream) && !stream.hold(ctx.clientId)) {
      throw GatewayError.invalidRequest(
        'subscriptions/listen needs a client that accepts text/event-stream',
      );
    }
    const listening = new ListeningSink(stream, requestId, agreed);
    listening.acknowledge(agreed);
    session.attachStandalone(listening);
    for (const uri of agreed.resourceSubscriptions ?? []) session.subscriptions.add(uri);
    const untrack = this.sessions.track(session);
    const unwatch = this.tasks.watch(session, taskIds);
    try {
      // Until the client closes the stream (its cancellation) or the gateway stops.
      await new Promise<void>((resolve) => {
        if (ctx.signal.aborted) resolve();
        else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
    } finally {
      unwatch();
      untrack();
      session.detachStandalone(listening);
    }
    return { _meta: { [SUBSCRIPTION_ID_META]: requestId } };
  }

  /**
   * The part of the filter this gateway honours: every list change, and the
   * resources the caller may see whose provider tells of updates; other URIs
   * are left out of the acknowledgement. The URIs are bounded as
   * resources/subscribe's are.
   */
  private agree(asked: ListenFilter, clientId: string): ListenFilter {
    const { resourceSubscriptions: uris, ...lists } = asked;
    // Task ids are the tasks module's to agree on (TaskSubscriptions).
    delete lists.taskIds;
    if (uris === undefined) return lists;
    const { subscriptions_per_session: most, subscription_uri_max_chars: longest } =
      this.config.limits;
    if (uris.length > most) {
      throw limitExceeded(
        ErrorCode.InvalidParams,
        'subscriptions_per_session',
        most,
        `${uris.length} resourceSubscriptions`,
      );
    }
    const tooLong = uris.find((uri) => uri.length > longest);
    if (tooLong !== undefined) {
      throw limitExceeded(
        ErrorCode.InvalidParams,
        'subscription_uri_max_chars',
        longest,
        `A subscribed URI of ${tooLong.length} characters`,
      );
    }
    return { ...lists, resourceSubscriptions: uris.filter((uri) => this.watchable(uri, clientId)) };
  }

  private watchable(uri: string, clientId: string): boolean {
    try {
      const { provider, resource } = this.providers.resolve(uri);
      return (
        provider.supportsSubscriptions &&
        this.visibility.isVisible(resource.visibilityUri, clientId)
      );
    } catch {
      return false;
    }
  }
}
