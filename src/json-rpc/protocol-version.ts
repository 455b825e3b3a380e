/**
 * The handshake-based ("legacy") MCP revisions this gateway speaks, newest
 * first: a client picks one in `initialize` and keeps it for its session.
 */
export const SUPPORTED_PROTOCOL_VERSIONS = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

export const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];

/**
 * The stateless ("modern") revisions: no handshake, no session; every
 * request carries its revision and the client's capabilities in `_meta`.
 */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

/** Every revision this gateway serves, newest first (server/discover, UnsupportedProtocolVersion). */
export const ALL_PROTOCOL_VERSIONS: readonly string[] = [
  ...MODERN_PROTOCOL_VERSIONS,
  ...SUPPORTED_PROTOCOL_VERSIONS,
];

export function isModernVersion(version: unknown): version is ModernProtocolVersion {
  return (
    typeof version === 'string' && (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version)
  );
}

/** Methods of the handshake revisions that 2026-07-28 removed: unknown to a stateless request. */
export const REMOVED_IN_2026: ReadonlySet<string> = new Set([
  'initialize',
  'notifications/initialized',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/** What Streamable HTTP assumes when a request carries no MCP-Protocol-Version header. */
export const DEFAULT_HTTP_PROTOCOL_VERSION: ProtocolVersion = '2025-03-26';

/** The seeds call their protocol "1.0"; it is not a real revision, so it means the oldest one. */
const ALIASES: Record<string, ProtocolVersion> = { '1.0': '2024-11-05' };

export function isSupportedVersion(version: unknown): version is ProtocolVersion {
  return (
    typeof version === 'string' &&
    (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version)
  );
}

/** The spec's rule: echo a supported request, otherwise answer with our latest. */
export function negotiateVersion(requested: unknown): ProtocolVersion {
  if (isSupportedVersion(requested)) return requested;
  if (typeof requested === 'string' && requested in ALIASES) return ALIASES[requested];
  return LATEST_PROTOCOL_VERSION;
}

/** JSON-RPC batching exists in 2025-03-26 and earlier; 2025-06-18 removed it. */
export function allowsBatching(version: string | undefined): boolean {
  return version === undefined || version === '2024-11-05' || version === '2025-03-26';
}
