import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';

/**
 * Completes oidc-provider's login and consent prompts without a page: login signs in the
 * `login_hint` account (else the default one), consent grants every scope the request asked for
 * on every resource it named. The browser (or headless client) is redirected onwards as usual.
 */
export async function completeInteraction(
  provider: Provider,
  defaultAccount: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { prompt, params, session, grantId } = await provider.interactionDetails(req, res);
  if (prompt.name === 'login') {
    const hint = params.login_hint;
    const accountId = typeof hint === 'string' && hint !== '' ? hint : defaultAccount;
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  if (prompt.name !== 'consent' || !session) {
    throw new Error(`the headless interaction cannot answer the ${prompt.name} prompt`);
  }
  const grant =
    (grantId ? await provider.Grant.find(grantId) : undefined) ??
    new provider.Grant({ accountId: session.accountId, clientId: String(params.client_id) });
  const details = prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(' '));
  }
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId: await grant.save() } },
    { mergeWithLastSubmission: true },
  );
}
