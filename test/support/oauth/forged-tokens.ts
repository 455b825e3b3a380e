import { importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';

/**
 * Signs any claims with a private JWK (its `kid` and `alg` go in the header unless overridden):
 * with the authorization server's own key this makes tokens that pass the signature check and
 * fail exactly the claim a negative test is about (expired, nbf ahead, wrong iss, wrong or no aud).
 */
export async function signToken(
  claims: JWTPayload,
  key: JWK,
  header: { alg?: string; kid?: string; typ?: string } = {},
): Promise<string> {
  const alg = header.alg ?? key.alg ?? 'RS256';
  return new SignJWT(claims)
    .setProtectedHeader({ alg, kid: header.kid ?? key.kid, typ: header.typ ?? 'at+jwt' })
    .sign(await importJWK(key, alg));
}

/** An unsigned JWT (`alg: none`, empty signature) that a verifier must refuse. */
export function unsignedToken(claims: JWTPayload): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  return `${encode({ alg: 'none', typ: 'at+jwt' })}.${encode(claims)}.`;
}

/** Claims that resemble an access token from `issuer` for `audience`, valid for an hour from now. */
export function accessTokenClaims(
  issuer: string,
  audience: string,
  extra: JWTPayload = {},
): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: issuer,
    aud: audience,
    sub: 'alice',
    client_id: 'forged-client',
    scope: 'mcp',
    jti: `forged-${now}-${Math.random().toString(36).slice(2)}`,
    iat: now,
    exp: now + 3600,
    ...extra,
  };
}
