import { randomUUID } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { CookieJar } from './cookie-jar';

export interface HeadlessOAuthClientSettings {
  /** Signed in by the authorization server's headless login (sent as `login_hint`). */
  account?: string;
  /** Requested when neither the server's challenge nor its resource metadata names scopes. */
  scope?: string;
  /** Never served: the client stops when the authorization server redirects here. */
  redirectUrl?: string;
  /** A registration made beforehand; without it the SDK registers dynamically. */
  clientInformation?: OAuthClientInformationMixed;
  maxRedirects?: number;
  /** False registers for authorization codes only, so that a new scope needs a new authorization (step-up). */
  refreshTokens?: boolean;
}

/**
 * An OAuthClientProvider for the MCP SDK client that needs no browser: "redirecting" the user
 * follows the authorization URL through the server's auto-completing login and consent and keeps
 * the code it ends with. The caller then does what an app does after its callback:
 * `transport.finishAuth(client.authorizationCode)` (or `auth(..., { authorizationCode })`).
 */
export class HeadlessOAuthClient implements OAuthClientProvider {
  /** The code from the last completed authorization. */
  authorizationCode?: string;
  private savedClient?: OAuthClientInformationMixed;
  private savedTokens?: OAuthTokens;
  private verifier?: string;
  private expectedState?: string;
  private readonly jar = new CookieJar();

  constructor(private readonly settings: HeadlessOAuthClientSettings = {}) {
    this.savedClient = settings.clientInformation;
  }

  get redirectUrl(): string {
    return this.settings.redirectUrl ?? 'http://127.0.0.1:1/oauth/callback';
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'headless test client',
      redirect_uris: [this.redirectUrl],
      grant_types:
        this.settings.refreshTokens === false
          ? ['authorization_code']
          : ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.settings.scope === undefined ? {} : { scope: this.settings.scope }),
    };
  }

  state(): string {
    this.expectedState = randomUUID();
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.savedClient;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.savedClient = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.savedTokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.savedTokens = tokens;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no PKCE code verifier saved');
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') this.savedClient = undefined;
    if (scope === 'all' || scope === 'tokens') this.savedTokens = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }

  /** Plays the browser: follows redirects (bounded) with cookies until the redirect URI. */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    let url = new URL(authorizationUrl);
    if (this.settings.account !== undefined)
      url.searchParams.set('login_hint', this.settings.account);
    const maxRedirects = this.settings.maxRedirects ?? 10;
    for (let hop = 0; hop <= maxRedirects; hop++) {
      const cookie = this.jar.headerFor(url);
      const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
      this.jar.store(url, response);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) {
        throw new Error(
          `authorization stopped at ${url.href} (${response.status}): ${await response.text()}`,
        );
      }
      await response.body?.cancel();
      url = new URL(location, url);
      if (isRedirectUri(url, this.redirectUrl)) {
        this.authorizationCode = this.codeFrom(url);
        return;
      }
    }
    throw new Error(
      `authorization did not reach ${this.redirectUrl} within ${maxRedirects} redirects`,
    );
  }

  private codeFrom(callback: URL): string {
    const { searchParams } = callback;
    const error = searchParams.get('error');
    if (error !== null) {
      throw new Error(
        `authorization refused: ${error} ${searchParams.get('error_description') ?? ''}`,
      );
    }
    if (this.expectedState !== undefined && searchParams.get('state') !== this.expectedState) {
      throw new Error('authorization response carries the wrong state');
    }
    const code = searchParams.get('code');
    if (code === null) throw new Error(`no code in ${callback.href}`);
    return code;
  }
}

function isRedirectUri(url: URL, redirectUrl: string): boolean {
  const expected = new URL(redirectUrl);
  return url.origin === expected.origin && url.pathname === expected.pathname;
}
