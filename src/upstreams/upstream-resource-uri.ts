import { GatewayError } from '../errors/gateway.error';

/** The URI scheme of relayed upstream resources. */
export const UPSTREAM_RESOURCE_SCHEME = 'mcp+upstream';

const GATEWAY_URI = /^mcp\+upstream:\/\/([a-z0-9][a-z0-9_-]{0,31})\/(.+)$/;

/**
 * `mcp+upstream://<server_id>/<encodeURIComponent(original uri)>`: the server
 * is the authority, the upstream's own URI the one path segment, so the
 * mapping is reversible and the result is a valid URI whatever the original
 * held (`file:///a b` -> `mcp+upstream://fs/file%3A%2F%2F%2Fa%20b`).
 */
export function toGatewayResourceUri(serverId: string, upstreamUri: string): string {
  return `${UPSTREAM_RESOURCE_SCHEME}://${serverId}/${encodeURIComponent(upstreamUri)}`;
}

/**
 * The server and upstream URI a gateway URI names; -32602 for anything but the
 * exact form toGatewayResourceUri writes, so that one resource has one
 * spelling and visibility rules over gateway URIs cannot be stepped around.
 */
export function fromGatewayResourceUri(uri: string): { serverId: string; upstreamUri: string } {
  const match = GATEWAY_URI.exec(uri);
  let upstreamUri: string | undefined;
  try {
    upstreamUri = match ? decodeURIComponent(match[2]) : undefined;
  } catch {
    upstreamUri = undefined;
  }
  if (!match || upstreamUri === undefined || toGatewayResourceUri(match[1], upstreamUri) !== uri) {
    throw GatewayError.invalidParams(
      `Invalid upstream resource URI: expected ${UPSTREAM_RESOURCE_SCHEME}://<server_id>/<the upstream URI, encoded with encodeURIComponent>`,
      { uri },
    );
  }
  return { serverId: match[1], upstreamUri };
}
