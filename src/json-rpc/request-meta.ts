import { boundedJsonSize } from '../common/bounded-json-size';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { limitExceeded } from '../errors/limit-exceeded';
import { isLoggingLevel, LoggingLevel, LOGGING_LEVELS } from '../session/logging-level';
import { ClientInfo } from '../session/mcp-session';
import { JsonRpcParams } from './json-rpc.types';
import { ALL_PROTOCOL_VERSIONS, isModernVersion, ModernProtocolVersion } from './protocol-version';

/** The `_meta` keys of 2026-07-28 that replace the handshake (basic/index, "_meta"). */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** What a stateless request says about itself, in place of a session. */
export interface RequestMeta {
  protocolVersion: ModernProtocolVersion;
  clientCapabilities: Record<string, unknown>;
  clientInfo?: ClientInfo;
  /** Absent: the request gets no notifications/message at all. */
  logLevel?: LoggingLevel;
}

function metaOf(params: JsonRpcParams | undefined): Record<string, unknown> | undefined {
  const meta = params?._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

/** The revision a message's `_meta` names (undefined when it names none): how a modern request is told apart. */
export function metaProtocolVersion(params: JsonRpcParams | undefined): unknown {
  return metaOf(params)?.[META_PROTOCOL_VERSION];
}

/** The revision the request's `_meta` names; -32602 when `_meta` or the field is missing. */
export function requireMetaVersion(params: JsonRpcParams | undefined): unknown {
  const meta = metaOf(params);
  if (meta === undefined) throw missing('params._meta');
  const version = meta[META_PROTOCOL_VERSION];
  if (version === undefined) throw missing(`_meta["${META_PROTOCOL_VERSION}"]`);
  return version;
}

/** The refusal for a revision this gateway does not serve, listing those it does. */
export function unsupportedVersion(requested: unknown): GatewayError {
  return new GatewayError(ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', {
    data: { supported: [...ALL_PROTOCOL_VERSIONS], requested: requested ?? null },
  });
}

/**
 * Reads the per-request fields of a modern request. Throws -32602 when a
 * required one is missing or malformed (HTTP 400), -32022 when the revision
 * is not one this gateway serves, and -32602 naming
 * `limits.session_metadata_bytes` when capabilities and clientInfo are
 * larger than an initialize may be.
 */
export function readRequestMeta(
  params: JsonRpcParams | undefined,
  maxMetadataBytes: number,
): RequestMeta {
  const version = requireMetaVersion(params);
  if (!isModernVersion(version)) throw unsupportedVersion(version);
  const meta = metaOf(params)!;
  const capabilities = meta[META_CLIENT_CAPABILITIES];
  if (capabilities === undefined) throw missing(`_meta["${META_CLIENT_CAPABILITIES}"]`);
  if (!isPlainObject(capabilities)) throw malformed(META_CLIENT_CAPABILITIES, 'an object');
  const clientInfo = meta[META_CLIENT_INFO];
  if (clientInfo !== undefined && !isClientInfo(clientInfo)) {
    throw malformed(META_CLIENT_INFO, 'an object with string name and version');
  }
  const logLevel = meta[META_LOG_LEVEL];
  if (logLevel !== undefined && !isLoggingLevel(logLevel)) {
    throw malformed(META_LOG_LEVEL, `one of ${LOGGING_LEVELS.join(', ')}`);
  }
  const size = boundedJsonSize(capabilities, maxMetadataBytes);
  if (size + boundedJsonSize(clientInfo, maxMetadataBytes - size) > maxMetadataBytes) {
    throw limitExceeded(
      ErrorCode.InvalidParams,
      'session_metadata_bytes',
      maxMetadataBytes,
      'Request clientCapabilities and clientInfo (serialized)',
    );
  }
  return { protocolVersion: version, clientCapabilities: capabilities, clientInfo, logLevel };
}

function missing(field: string): GatewayError {
  return GatewayError.invalidParams(`Invalid params: missing ${field}`, { field });
}

function malformed(key: string, expected: string): GatewayError {
  return GatewayError.invalidParams(`Invalid params: _meta["${key}"] must be ${expected}`, {
    field: `_meta.${key}`,
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isClientInfo(value: unknown): value is ClientInfo {
  return (
    isPlainObject(value) && typeof value.name === 'string' && typeof value.version === 'string'
  );
}
