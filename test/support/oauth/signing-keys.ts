import { exportJWK, generateKeyPair, type JWK } from 'jose';

let generated = 0;

/** A fresh private signing JWK with `kid`, `alg` and `use`, ready for the server and for forging. */
export async function generateSigningKey(
  alg = 'RS256',
  kid = `test-key-${++generated}`,
): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
}

/** The public half of private JWKs, as a JWKS endpoint serves them. */
export function publicJwks(keys: JWK[]): { keys: JWK[] } {
  const privateMembers = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']);
  return {
    keys: keys.map(
      (key) =>
        Object.fromEntries(
          Object.entries(key).filter(([name]) => !privateMembers.has(name)),
        ) as JWK,
    ),
  };
}
