/**
 * Bounds on what an upstream may ask of the calling client through the
 * gateway (sampling/createMessage, elicitation/create): a hostile or looping
 * upstream must not be able to flood a client or hold a call open forever.
 */
export const UPSTREAM_RELAY_LIMITS = {
  /** Requests one upstream tool call may have relayed to its client. */
  maxRequestsPerCall: 16,
  /** Bytes of a relayed request's params as JSON. */
  maxParamsBytes: 256 * 1024,
  /** Bytes of the client's answer as JSON. */
  maxResultBytes: 1024 * 1024,
  /** How long the client may take to answer one relayed request. */
  timeoutMs: 120_000,
  /**
   * How long a call the gateway gave up on (cancelled, timed out) still counts
   * as in flight: the upstream may not have stopped, and its late requests
   * must make attribution ambiguous rather than reach another caller.
   */
  abandonedGraceMs: 10_000,
} as const;

/** How long `approval_policy: always` waits for the client's answer before refusing the call. */
export const APPROVAL_TIMEOUT_MS = 120_000;

/** Characters of the arguments shown in an approval request. */
export const APPROVAL_ARGUMENTS_SUMMARY_CHARS = 512;
