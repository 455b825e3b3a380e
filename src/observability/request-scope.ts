import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while serving one request carries. */
export interface RequestScope {
  /** The JSON-RPC id as sent, or a generated one for notifications. */
  readonly requestId: string;
  /** W3C trace id (32 hex digits). */
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;
  readonly method: string;
  readonly clientId: string;
  readonly sessionId?: string;
  /**
   * The tracer's own state for the step being run (the OpenTelemetry context
   * when tracing is on): one store for the request, so that Node's async
   * hooks propagate one value per promise rather than one per library.
   */
  readonly traceContext?: unknown;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** The request being served by the current async context, found without threading it by hand. */
export const requestScope = {
  run<T>(scope: RequestScope, fn: () => T): T {
    return storage.run(scope, fn);
  },
  current(): RequestScope | undefined {
    return storage.getStore();
  },
};
