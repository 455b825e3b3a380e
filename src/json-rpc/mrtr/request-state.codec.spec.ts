import { randomBytes } from 'node:crypto';
import { GatewayError } from '../../errors/gateway.error';
import { RequestStateClaims, RequestStateCodec } from './request-state.codec';
import { requestStateSecret } from './request-state.secret';

const NOW = 1_800_000_000_000;
const BOUND = { principal: 'owner\u0000client-a', method: 'tools/call', paramsDigest: 'abc' };
const CLAIMS: RequestStateClaims = {
  ...BOUND,
  expiresAt: NOW + 60_000,
  round: 1,
  answers: { user_name: { action: 'accept', content: { name: 'Ada' } } },
};

function refusalOf(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return err instanceof GatewayError ? { code: err.code, reason: err.data.reason } : err;
  }
  return undefined;
}

describe('RequestStateCodec', () => {
  it('returns the claims of a state it issued, for the same caller and request', () => {
    const codec = new RequestStateCodec(randomBytes(32));
    expect(codec.decode(codec.encode(CLAIMS), BOUND, NOW)).toEqual(CLAIMS);
  });

  it('refuses an expired state', () => {
    const codec = new RequestStateCodec(randomBytes(32));
    const state = codec.encode(CLAIMS);
    expect(refusalOf(() => codec.decode(state, BOUND, CLAIMS.expiresAt))).toEqual({
      code: -32602,
      reason: 'expired',
    });
  });

  it('refuses a state whose answers were changed, or that is not two base64url parts', () => {
    const codec = new RequestStateCodec(randomBytes(32));
    const [, mac] = codec.encode(CLAIMS).split('.');
    const forged = Buffer.from(JSON.stringify({ ...CLAIMS, answers: {} })).toString('base64url');
    expect(refusalOf(() => codec.decode(`${forged}.${mac}`, BOUND, NOW))).toEqual({
      code: -32602,
      reason: 'tampered',
    });
    expect(refusalOf(() => codec.decode('no-dot', BOUND, NOW))).toEqual({
      code: -32602,
      reason: 'malformed',
    });
  });

  it('is accepted by another replica only when both read the same mrtr.state_secret_ref', () => {
    const env = { MRTR_SECRET: 'shared-by-every-replica' };
    const issuer = new RequestStateCodec(requestStateSecret('env:MRTR_SECRET', env));
    const peer = new RequestStateCodec(requestStateSecret('env:MRTR_SECRET', env));
    const stranger = new RequestStateCodec(requestStateSecret(''));
    const state = issuer.encode(CLAIMS);
    expect(peer.decode(state, BOUND, NOW)).toEqual(CLAIMS);
    expect(refusalOf(() => stranger.decode(state, BOUND, NOW))).toEqual({
      code: -32602,
      reason: 'tampered',
    });
  });

  it('refuses to start when the secret it names is missing', () => {
    expect(() => requestStateSecret('env:MRTR_UNSET', {})).toThrow(
      'mrtr.state_secret_ref: MRTR_UNSET is not set or empty',
    );
  });
});
