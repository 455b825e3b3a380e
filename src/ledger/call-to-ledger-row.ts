import { chargedCost } from './charged-cost';
import { CompletedCall } from '../json-rpc/call-observers';
import { JsonRpcId, JsonRpcParams } from '../json-rpc/json-rpc.types';
import { ArgumentRedactor } from './argument-redactor';
import { callOutcome } from './ledger-outcome';
import { LedgerRow } from './ledger-row';

export interface LedgerRowOptions {
  /** False stores null instead of the arguments. */
  recordArguments: boolean;
  redactor: ArgumentRedactor;
}

/** The ledger row of one completed tools/call, resources/read or prompts/get. */
export function toLedgerRow(call: CompletedCall, options: LedgerRowOptions): LedgerRow {
  const { context, params } = call;
  const { outcome, errorCode, result, deniedFor } = callOutcome(call);
  const charged = chargedCost(call);
  return {
    time: call.startedAt,
    requestId: requestIdText(context.requestId),
    traceId: context.traceId,
    clientId: context.clientId,
    sessionId: context.session.id,
    transport: context.transport,
    method: context.method,
    target: context.call.target ?? targetFromParams(context.method, params),
    arguments: options.recordArguments ? recordedArguments(call, options) : null,
    outcome,
    errorCode,
    denialReason: context.call.denialReason ?? deniedFor ?? null,
    durationMs: call.durationMs,
    cost: charged.cost,
    resultBytes: result === undefined ? 0 : resultSize(call, result),
    costFlag: charged.flag,
  };
}

/**
 * Bytes of the result's JSON. The dispatcher serialized the response before
 * the ledger saw it (`{"jsonrpc":"2.0","id":...,"result":...}`, as success()
 * builds it) and measured it: the result is that less its envelope, with no
 * second stringify on the call path.
 */
function resultSize(call: CompletedCall, result: unknown): number {
  const { response, responseBytes } = call;
  if (responseBytes !== undefined && response !== undefined && 'result' in response) {
    const envelope = `{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":}`;
    const size = responseBytes - Buffer.byteLength(envelope);
    if (size > 0) return size;
  }
  return Buffer.byteLength(JSON.stringify(result));
}

/** `s:` / `n:` keep the string id "1" apart from the number id 1. */
export function requestIdText(id: JsonRpcId | undefined): string {
  if (id === undefined) return '';
  return typeof id === 'string' ? `s:${id}` : `n:${id}`;
}

/** What the call addressed, when the handler did not get as far as saying so. */
function targetFromParams(method: string, params: JsonRpcParams): string {
  const value = method === 'resources/read' ? params.uri : params.name;
  return typeof value === 'string' ? value : '';
}

/** Arguments refused for their size are named by the limit they passed, not stored. */
function recordedArguments(call: CompletedCall, options: LedgerRowOptions): string {
  const { context, params } = call;
  const overLimit = context.call.argumentsOverLimit;
  if (overLimit !== undefined) return JSON.stringify(`[not recorded: over ${overLimit}]`);
  return JSON.stringify(options.redactor.redact(auditedArguments(context.method, params)));
}

function auditedArguments(method: string, params: JsonRpcParams): unknown {
  if (method === 'resources/read') {
    return { uri: params.uri, range: params.range, ifNoneMatch: params.ifNoneMatch };
  }
  return params.arguments ?? {};
}
