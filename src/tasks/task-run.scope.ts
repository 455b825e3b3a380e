import { loggedId } from '../logging/clipped-text';
import { requestScope } from '../observability/request-scope';
import { newSpanId } from '../observability/tracing/traceparent';
import { TaskRecord } from './task-record';

const W3C_TRACE_ID = /^[0-9a-f]{32}$/;

/**
 * Runs a task's work in the request scope of the tools/call that created it,
 * so that its log lines and upstream calls carry that call's trace id. A task
 * created before trace ids were W3C ones (a UUID) runs without a scope.
 */
export function inTaskScope<T>(task: TaskRecord, run: () => Promise<T>): Promise<T> {
  const { origin } = task;
  if (!W3C_TRACE_ID.test(origin.traceId)) return run();
  return requestScope.run(
    {
      requestId: loggedId(origin.requestId),
      traceId: origin.traceId,
      spanId: newSpanId(),
      sampled: false,
      method: 'tools/call',
      clientId: task.clientId,
      sessionId: origin.sessionId,
    },
    run,
  );
}
