import { Logger } from '@nestjs/common';
import { ServerResponse } from 'node:http';
import { clipText, LOGGED_NAME_MAX_CHARS } from '../../logging/clipped-text';
import { requestScope } from '../../observability/request-scope';
import { parseTraceparent } from '../../observability/tracing/traceparent';
import { traceparentOf } from './http-headers';

const logger = new Logger('HttpRefusal');

/**
 * The log line of an HTTP request refused before any MCP method ran (a
 * missing session, a limit, a body too large): at error when the gateway
 * could not serve it (5xx), else at info, as the caller's mistake. It
 * carries the caller's trace id when the request named one, or the trace id
 * of the MCP request being served when one met the refusal.
 */
export function logHttpRefusal(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
): void {
  const req = res.req;
  const line = {
    msg: 'http request refused',
    method: req.method,
    path: clipText((req.url ?? '').split('?', 1)[0], LOGGED_NAME_MAX_CHARS),
    status,
    errorCode: code,
    error: clipText(message, LOGGED_NAME_MAX_CHARS),
    traceId: requestScope.current()?.traceId ?? parseTraceparent(traceparentOf(req))?.traceId,
  };
  if (status >= 500) logger.error(line);
  else logger.log(line);
}
