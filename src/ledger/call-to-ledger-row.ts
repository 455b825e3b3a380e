import { hash } from 'node:crypto';
import { chargedCost } from './charged-cost';
import { CompletedCall } from '../json-rpc/call-observers';
import { JsonRpcId, JsonRpcParams } from '../json-rpc/json-rpc.types';
import { ArgumentRedactor } from './argument-redactor';
import { callOutcome } from './ledger-outcome';
import { LedgerRow } from './ledger-row';
import { LEDGER_ERROR_MESSAGE_MAX } from './ledger.constants';

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
  const sent = result === undefined ? undefined : sentResult(call, result);
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
    resultBytes: sent?.bytes ?? 0,
    costFlag: charged.flag,
    errorMessage: recordedMessage(call, outcome, options.redactor),
    resultSha256: sent?.sha256 ?? null,
    upstreamServer: context.call.upstream?.server ?? null,
    upstreamTool: context.call.upstream?.tool ?? null,
    subject: context.token?.subject ?? null,
    tokenId: context.token?.tokenId ?? null,
  };
}

/**
 * Size and SHA-256 of the result's JSON. The dispatcher serialized the
 * response before the ledger saw it (`{"jsonrpc":"2.0","id":...,"result":...}`,
 * as success() builds it): the result is that text less its envelope, so
 * neither needs a second stringify on the call path.
 */
function sentResult(call: CompletedCall, result: unknown): { bytes: number; sha256: string } {
  const { response, responseBytes, responseText } = call;
  if (responseText !== undefined && response !== undefined && 'result' in response) {
    const opening = `{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":`;
    if (responseText.startsWith(opening) && responseText.endsWith('}')) {
      const bytes =
        (responseBytes ?? Buffer.byteLength(responseText)) - Buffer.byteLength(opening) - 1;
      const json = responseText.slice(opening.length, -1);
      if (bytes > 0) return { bytes, sha256: sha256(json) };
    }
  }
  const json = JSON.stringify(result);
  return { bytes: Buffer.byteLength(json), sha256: sha256(json) };
}

function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}

/**
 * What the client was told went wrong: the JSON-RPC error message, or the
 * text a tool returned with `isError`. Redacted before it is cut, so a cut
 * never leaves half a secret; only the first stretch is read, the rest
 * would be cut anyway.
 */
function recordedMessage(
  call: CompletedCall,
  outcome: LedgerRow['outcome'],
  redactor: ArgumentRedactor,
): string | null {
  const { response } = call;
  if (response === undefined || outcome === 'success' || outcome === 'cancelled') return null;
  const message = 'error' in response ? response.error.message : toolErrorText(response.result);
  if (message === '') return null;
  const redacted = redactor.redactText(message.slice(0, 2 * LEDGER_ERROR_MESSAGE_MAX));
  if (redacted.length <= LEDGER_ERROR_MESSAGE_MAX) return redacted;
  return `${redacted.slice(0, LEDGER_ERROR_MESSAGE_MAX - 1)}…`;
}

/** The text items of a tool error's content, one per line. */
function toolErrorText(result: unknown): string {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(
      (item): item is { text: string } => typeof (item as { text?: unknown })?.text === 'string',
    )
    .map((item) => item.text)
    .join('\n');
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
