import { LoggingLevel } from '../logging-level';
import { ClientInfo, McpSession, SessionTransport } from '../mcp-session';

/**
 * What replicas share of a session (the negotiated state): enough for any
 * replica to serve the session's next request. Streams, requests in flight
 * and server requests awaiting answers stay with the replica that holds them.
 */
export interface SessionRecord {
  id: string;
  transport: SessionTransport;
  clientId: string;
  owner: string;
  protocolVersion?: string;
  initialized: boolean;
  clientInfo?: ClientInfo;
  clientCapabilities: Record<string, unknown>;
  logLevel?: LoggingLevel;
  /** The session's resource subscriptions (at most limits.subscriptions_per_session). */
  subscriptions: string[];
}

export function sessionRecordOf(session: McpSession): SessionRecord {
  return {
    id: session.id,
    transport: session.transport,
    clientId: session.clientId,
    owner: session.owner,
    protocolVersion: session.protocolVersion,
    initialized: session.initialized,
    clientInfo: session.clientInfo,
    clientCapabilities: session.clientCapabilities,
    logLevel: session.logLevel,
    subscriptions: [...session.subscriptions],
  };
}

/** Brings a replica's copy up to date with the shared record. */
export function applySessionRecord(session: McpSession, record: SessionRecord): void {
  session.protocolVersion = record.protocolVersion;
  session.initialized = record.initialized;
  session.clientInfo = record.clientInfo;
  session.clientCapabilities = record.clientCapabilities;
  session.logLevel = record.logLevel;
  session.subscriptions.clear();
  for (const uri of record.subscriptions) session.subscriptions.add(uri);
}

/** A record read back from Redis: only its shape is trusted, never its origin. */
export function parseSessionRecord(text: string | null): SessionRecord | undefined {
  if (text === null) return undefined;
  try {
    const value = JSON.parse(text) as Partial<SessionRecord> | null;
    if (
      typeof value?.id !== 'string' ||
      typeof value.clientId !== 'string' ||
      typeof value.owner !== 'string' ||
      (value.transport !== 'streamable-http' && value.transport !== 'legacy-sse') ||
      typeof value.initialized !== 'boolean'
    ) {
      return undefined;
    }
    const subscriptions = Array.isArray(value.subscriptions)
      ? value.subscriptions.filter((uri): uri is string => typeof uri === 'string')
      : [];
    return { clientCapabilities: {}, ...value, subscriptions } as SessionRecord;
  } catch {
    return undefined;
  }
}
