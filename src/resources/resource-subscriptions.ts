import { Injectable } from '@nestjs/common';
import { McpSession } from '../session/mcp-session';
import { canonicalSkillUri } from './skill-uri';

/** Which session watches which resource URIs; a closed session leaves nothing behind. */
@Injectable()
export class ResourceSubscriptions {
  private readonly bySession = new Map<McpSession, Set<string>>();

  subscribe(session: McpSession, uri: string): void {
    let uris = this.bySession.get(session);
    if (!uris) {
      uris = new Set();
      this.bySession.set(session, uris);
      session.onClose(() => this.bySession.delete(session));
    }
    uris.add(uri);
  }

  /** Ends every subscription of the session to this resource, however the client spelled it. */
  unsubscribe(session: McpSession, uri: string): boolean {
    const uris = this.bySession.get(session);
    if (!uris) return false;
    const canonical = canonicalSkillUri(uri);
    let removed = false;
    for (const subscribed of [...uris]) {
      if (canonicalSkillUri(subscribed) === canonical) removed = uris.delete(subscribed) || removed;
    }
    return removed;
  }

  /** Sessions with subscriptions the predicate accepts, each with those URIs. */
  subscribersMatching(
    accepts: (uri: string) => boolean,
  ): Array<{ session: McpSession; uris: string[] }> {
    const result: Array<{ session: McpSession; uris: string[] }> = [];
    for (const [session, subscribed] of this.bySession) {
      const hits = [...subscribed].filter(accepts);
      if (hits.length > 0) result.push({ session, uris: hits });
    }
    return result;
  }

  get sessionCount(): number {
    return this.bySession.size;
  }
}
