import { Logger } from '@nestjs/common';
import { IncomingMessage, ServerResponse } from 'node:http';
import { ClientIdentityResolver } from '../../governance/identity/client-identity.resolver';
import { IdentityRefused } from '../../governance/identity/identity-refused.error';
import { failure } from '../../json-rpc/json-rpc.responses';
import { sendJson } from './http-reply';

const REALM = 'Bearer realm="owlclaw-mcp-gateway"';
const logger = new Logger('ClientIdentity');

/** Answers a refused identity with its HTTP status and a JSON-RPC error body, like every transport refusal. */
export function sendIdentityRefusal(
  req: IncomingMessage,
  res: ServerResponse,
  refusal: IdentityRefused,
): void {
  logger.warn({
    msg: 'request refused',
    status: refusal.status,
    path: (req.url ?? '').split('?', 1)[0],
    reason: refusal.message,
  });
  if (refusal.status === 401) res.setHeader('WWW-Authenticate', REALM);
  const data = { retryable: false, http_status: refusal.status, ...refusal.data };
  sendJson(res, refusal.status, failure(null, refusal.code, refusal.message, data));
}

/** The caller's client id, or undefined with its refusal (400/401) written. */
export function identifyOrRefuse(
  identity: ClientIdentityResolver,
  req: IncomingMessage,
  res: ServerResponse,
): string | undefined {
  return refusing(req, res, () => identity.identify(req));
}

/** Whether the caller owns the session, false with its refusal (400/401/403) written. */
export function ownsSessionOrRefuse(
  identity: ClientIdentityResolver,
  req: IncomingMessage,
  res: ServerResponse,
  sessionClientId: string,
): boolean {
  const owns = () => {
    identity.checkSessionOwner(req, sessionClientId);
    return true;
  };
  return refusing(req, res, owns) ?? false;
}

function refusing<T>(req: IncomingMessage, res: ServerResponse, resolve: () => T): T | undefined {
  try {
    return resolve();
  } catch (err) {
    if (!(err instanceof IdentityRefused)) throw err;
    sendIdentityRefusal(req, res, err);
    return undefined;
  }
}
