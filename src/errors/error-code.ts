/** JSON-RPC error codes: the standard ones and the gateway's own (seed error table). */
export enum ErrorCode {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ToolNotFound = -32001,
  ResourceNotFound = -32002,
  GovernanceDenied = -32003,
  Timeout = -32004,
  ExecutionError = -32005,
  /** 2026-07-28: an HTTP header disagrees with the body, or a required one is missing. */
  HeaderMismatch = -32020,
  /** 2026-07-28: the request needs a client capability its `_meta` does not declare. */
  MissingRequiredClientCapability = -32021,
  /** 2026-07-28: the request names a revision this gateway does not serve. */
  UnsupportedProtocolVersion = -32022,
}

/** Coarse grouping that logs, metrics and the REST surface use instead of raw codes. */
export type ErrorCategory = 'protocol' | 'not_found' | 'governance' | 'execution' | 'internal';

export const ERROR_CATEGORY: Record<ErrorCode, ErrorCategory> = {
  [ErrorCode.ParseError]: 'protocol',
  [ErrorCode.InvalidRequest]: 'protocol',
  [ErrorCode.MethodNotFound]: 'protocol',
  [ErrorCode.InvalidParams]: 'protocol',
  [ErrorCode.InternalError]: 'internal',
  [ErrorCode.ToolNotFound]: 'not_found',
  [ErrorCode.ResourceNotFound]: 'not_found',
  [ErrorCode.GovernanceDenied]: 'governance',
  [ErrorCode.Timeout]: 'execution',
  [ErrorCode.ExecutionError]: 'execution',
  [ErrorCode.HeaderMismatch]: 'protocol',
  [ErrorCode.MissingRequiredClientCapability]: 'protocol',
  [ErrorCode.UnsupportedProtocolVersion]: 'protocol',
};

/** Whether a client may retry the same request unchanged, by default. */
export const DEFAULT_RETRYABLE: Record<ErrorCode, boolean> = {
  [ErrorCode.ParseError]: false,
  [ErrorCode.InvalidRequest]: false,
  [ErrorCode.MethodNotFound]: false,
  [ErrorCode.InvalidParams]: false,
  [ErrorCode.InternalError]: true,
  [ErrorCode.ToolNotFound]: false,
  [ErrorCode.ResourceNotFound]: false,
  [ErrorCode.GovernanceDenied]: false,
  [ErrorCode.Timeout]: true,
  [ErrorCode.ExecutionError]: false,
  [ErrorCode.HeaderMismatch]: false,
  [ErrorCode.MissingRequiredClientCapability]: false,
  [ErrorCode.UnsupportedProtocolVersion]: false,
};
