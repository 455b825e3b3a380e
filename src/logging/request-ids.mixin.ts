import { RequestScope, requestScope } from '../observability/request-scope';

const NONE: object = Object.freeze({});

/**
 * For pino's `mixin`: the request being served, if any, so that every line
 * written while serving it carries its ids, whichever code writes it.
 */
export function requestIds(): object {
  return requestScope.current() ?? NONE;
}

/**
 * For pino's `mixinMergeStrategy`: a copy of the line (its writer may keep
 * it) with the request's ids after its own fields, so its msg stays first;
 * an id the line sets itself (a line may name another request) is kept.
 */
export function appendRequestIds(line: object, scope: object): object {
  if (scope === NONE) return line;
  const { requestId, traceId, spanId, sessionId, clientId } = scope as RequestScope;
  const merged = Object.assign({}, line) as Record<string, unknown>;
  if (!('requestId' in merged)) merged.requestId = requestId;
  if (!('traceId' in merged)) merged.traceId = traceId;
  if (!('spanId' in merged)) merged.spanId = spanId;
  if (!('sessionId' in merged)) merged.sessionId = sessionId;
  if (!('clientId' in merged)) merged.clientId = clientId;
  return merged;
}
