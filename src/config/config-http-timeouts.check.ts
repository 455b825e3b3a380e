import { keyLabel, Problem } from './config-problem';
import { GatewayConfig } from './gateway-config';

/** Node refuses a request timeout shorter than the headers timeout: the headers are part of the request. */
export function httpTimeoutsConfigProblems(
  config: Pick<GatewayConfig, 'http'>,
  originOf: (keyPath: readonly string[]) => string | undefined,
): Problem[] {
  const { headers_timeout_seconds: headers, request_timeout_seconds: request } = config.http;
  if (request >= headers) return [];
  const keyPath = ['http', 'request_timeout_seconds'];
  return [
    {
      subject: keyLabel(keyPath),
      message: `must be at least ${keyLabel(['http', 'headers_timeout_seconds'])} (${headers}): the headers are part of the request`,
      origin: originOf(keyPath),
    },
  ];
}
