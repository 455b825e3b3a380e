import { OAUTH_LIMITS } from './oauth.limits';

/** An authorization server's answer that could not be used: unreachable, too slow, too large, not JSON. */
export class AuthorizationServerUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthorizationServerUnavailable';
  }
}

/**
 * `fetch` with the limits every request to an authorization server gets: a
 * timeout and a cap on the body it reads. Redirects are not followed, so a
 * configured URL cannot be bent towards another host. Also jose's fetch for
 * JWKS (its `customFetch`), which otherwise reads bodies of any size.
 */
export async function boundedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const signal = AbortSignal.timeout(OAUTH_LIMITS.fetchTimeoutMs);
  const response = await fetch(url, { ...init, signal, redirect: 'manual' });
  const body = await readCapped(response, url);
  return new Response(body, { status: response.status, headers: response.headers });
}

/** The JSON object at `url` (2xx only), or AuthorizationServerUnavailable saying why not. */
export async function fetchJsonObject(
  url: string,
  init: RequestInit = {},
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await boundedFetch(url, init);
  } catch (err) {
    if (err instanceof AuthorizationServerUnavailable) throw err;
    throw new AuthorizationServerUnavailable(`${url}: ${(err as Error).message}`);
  }
  if (!response.ok) throw new AuthorizationServerUnavailable(`${url} answered ${response.status}`);
  let value: unknown;
  try {
    value = await response.json();
  } catch {
    throw new AuthorizationServerUnavailable(`${url} did not answer JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AuthorizationServerUnavailable(`${url} did not answer a JSON object`);
  }
  return value as Record<string, unknown>;
}

async function readCapped(response: Response, url: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (!response.body) return new Uint8Array();
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > OAUTH_LIMITS.maxDocumentBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new AuthorizationServerUnavailable(
        `${url}: the answer is larger than ${OAUTH_LIMITS.maxDocumentBytes} bytes`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
