import { ErrorCode } from '../../errors/error-code';
import { GatewayError } from '../../errors/gateway.error';

/**
 * What an ask without an answer rejects with on a 2026-07-28 request: the
 * handler stops there, and the dispatcher answers with an input-required
 * result instead of this error. A GatewayError, so no layer logs it as an incident.
 */
export class InputRequiredSignal extends GatewayError {
  constructor(readonly key: string) {
    super(ErrorCode.ExecutionError, `Input required from the client (${key})`, { data: { key } });
  }
}
