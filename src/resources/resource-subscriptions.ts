import { Inject, Injectable } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { ErrorCode } from '../errors/error-code';
import { limitExceeded } from '../errors/limit-exceeded';
import { McpSession } from '../session/mcp-session';
import { SessionRegistry } from '../session/session.registry';
import { canonicalSkillUri } from './skill-uri';

const UPDATED = 'notifications/resources/updated';

/**
 * Which sessions watch which resource URIs, and telling them of a change.
 * The URIs are the session's own state (McpSession.subscriptions), so a
 * shared session's record carries them to every replica and they outlive
 * the replica that took the subscribe.
 *
 * Every replica sees a change itself (the skills directory, a provider's
 * source), so for a shared session only the replica holding its standalone
 * stream tells it: once, wherever the subscribe landed.
 */
@Injectable()
export class ResourceSubscriptions {
  constructor(
    private readonly sessions: SessionRegistry,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Refuses a URI too long to keep, before anything looks it up. */
  checkUriLength(uri: string): void {
    const longest = this.config.limits.subscription_uri_max_chars;
    if (uri.length <= longest) return;
    throw limitExceeded(
      ErrorCode.InvalidParams,
      'subscription_uri_max_chars',
      longest,
      `A subscribed URI of ${uri.length} characters`,
    );
  }

  /** Refuses past the per-session limits; settles once the other replicas can see it. */
  async subscribe(session: McpSession, uri: string): Promise<void> {
    this.checkUriLength(uri);
    const most = this.config.limits.subscriptions_per_session;
    if (session.subscriptions.has(uri)) return;
    if (session.subscriptions.size >= most) {
      throw limitExceeded(
        ErrorCode.InvalidParams,
        'subscriptions_per_session',
        most,
        'Another resource subscription of this session',
      );
    }
    session.subscriptions.add(uri);
    await this.sessions.persist(session);
  }

  /** Ends every subscription of the session to this resource, however the client spelled it. */
  async unsubscribe(session: McpSession, uri: string): Promise<boolean> {
    const canonical = canonicalSkillUri(uri);
    let removed = false;
    for (const subscribed of [...session.subscriptions]) {
      if (canonicalSkillUri(subscribed) === canonical) {
        removed = session.subscriptions.delete(subscribed) || removed;
      }
    }
    if (removed) await this.sessions.persist(session);
    return removed;
  }

  /**
   * Sends `notifications/resources/updated` for each subscribed URI the
   * predicate accepts; returns how many sessions were told.
   */
  notifyUpdated(accepts: (uri: string) => boolean): number {
    let told = 0;
    for (const session of this.sessions.sessionsHere()) {
      if (!session.initialized || session.subscriptions.size === 0) continue;
      const shared = this.sessions.isShared(session);
      let sent = false;
      for (const uri of session.subscriptions) {
        if (!accepts(uri)) continue;
        const message = { jsonrpc: '2.0' as const, method: UPDATED, params: { uri } };
        sent =
          (shared ? session.sendOnLocalStream(message) : session.notify(UPDATED, { uri })) || sent;
      }
      if (sent) told++;
    }
    return told;
  }
}
