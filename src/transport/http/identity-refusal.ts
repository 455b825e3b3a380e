import { Logger } from '@nestjs/common';
import { IncomingMessage, ServerResponse } from 'node:http';
import { CallerIdentity } from '../../governance/identity/caller-identity';
import { ClientIdentityResolver } from '../../governance/identity/client-identity.resolver';
import { IdentityRefused } from '../../governance/identity/identity-refused.error';
import { failure } from '../../json-rpc/json-rpc.responses';
import { sendJson } from './http-reply';

const logger = new Logger('ClientIdentity');

/** Answers a refused identity with its HTTP status, its challenge and a JSON-RPC error body, like every transport refusal. */
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
  if (refusal.challenge !== undefined) res.setHeader('WWW-Authenticate', refusal.challenge);
  const data = { retryable: refusal.retryable, http_status: refusal.status, ...refusal.data };
  sendJson(res, refusal.status, failure(null, refusal.code, refusal.message, data));
}

/** The caller's identity, or undefined with its refusal (400/401/403/503) written. */
export async function identifyOrRefuse(
  identity: ClientIdentityResolver,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<CallerIdentity | undefined> {
  try {
    return await identity.identify(req);
  } catch (err) {
    if (!(err instanceof IdentityRefused)) throw err;
    sendIdentityRefusal(req, res, err);
    return undefined;
  }
}
