import { createHmac, timingSafeEqual } from 'node:crypto';
import { GatewayError } from '../../errors/gateway.error';
import { REQUEST_STATE_MAC_LABEL } from './mrtr.constants';

/** What a requestState vouches for: who asked what, until when, and the answers so far. */
export interface RequestStateClaims {
  /** The session owner and client id the rounds belong to. */
  principal: string;
  method: string;
  /** SHA-256 of the request's params without _meta, inputResponses and requestState. */
  paramsDigest: string;
  /** Epoch milliseconds after which the state is refused. */
  expiresAt: number;
  /** Rounds answered so far (1 after the first input-required result was answered). */
  round: number;
  answers: Record<string, unknown>;
}

/** Why a requestState was refused, as `error.data.reason` says it. */
export type StateRefusal = 'malformed' | 'tampered' | 'expired' | 'other_client' | 'other_request';

/**
 * Signs and checks requestState: base64url(JSON claims) "." base64url(HMAC-SHA256).
 * The client holds the state between rounds, so nothing is kept on any replica;
 * the MAC is what stops it from changing the answers or moving them elsewhere.
 */
export class RequestStateCodec {
  constructor(private readonly secret: Buffer) {}

  encode(claims: RequestStateClaims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The claims, if the state is intact, current and issued for this very caller and request. */
  decode(
    state: string,
    expected: Pick<RequestStateClaims, 'principal' | 'method' | 'paramsDigest'>,
    now = Date.now(),
  ): RequestStateClaims {
    const [payload, mac, extra] = state.split('.');
    if (!payload || !mac || extra !== undefined) throw refused('malformed');
    const given = Buffer.from(mac, 'base64url');
    const wanted = this.mac(payload);
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted))
      throw refused('tampered');
    const claims = parseClaims(payload);
    if (claims.expiresAt <= now) throw refused('expired');
    if (claims.principal !== expected.principal) throw refused('other_client');
    if (claims.method !== expected.method || claims.paramsDigest !== expected.paramsDigest) {
      throw refused('other_request');
    }
    return claims;
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.secret)
      .update(REQUEST_STATE_MAC_LABEL)
      .update(payload)
      .digest();
  }
}

function parseClaims(payload: string): RequestStateClaims {
  try {
    const claims = JSON.parse(
      Buffer.from(payload, 'base64url').toString('utf8'),
    ) as RequestStateClaims;
    // Signed by this gateway, so well-formed; checked anyway so a key shared by mistake cannot crash us.
    if (
      typeof claims.principal === 'string' &&
      typeof claims.method === 'string' &&
      typeof claims.paramsDigest === 'string' &&
      Number.isFinite(claims.expiresAt) &&
      Number.isInteger(claims.round) &&
      typeof claims.answers === 'object' &&
      claims.answers !== null
    ) {
      return claims;
    }
  } catch {
    // Falls through to the refusal below.
  }
  throw refused('malformed');
}

const REFUSAL_TEXT: Readonly<Record<StateRefusal, string>> = {
  malformed: 'is not a requestState this gateway issued',
  tampered: 'failed its integrity check',
  expired: 'has expired (mrtr.state_ttl_seconds): start the request again without it',
  other_client: 'was issued to another client',
  other_request: 'was issued for another request (method or params differ)',
};

/** -32602: the state is a parameter of the request, and a bad one makes the request invalid. */
function refused(reason: StateRefusal): GatewayError {
  return GatewayError.invalidParams(`Invalid params: requestState ${REFUSAL_TEXT[reason]}`, {
    field: 'requestState',
    reason,
  });
}
