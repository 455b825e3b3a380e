/**
 * The tests' OAuth 2.1 / OpenID authorization server (oidc-provider) in its own process:
 * `node -r ./test/support/register-typescript.js authorization-server.child.ts`, options as JSON in OAUTH_SERVER_OPTIONS,
 * port in OAUTH_SERVER_PORT. Prints `authorization server listening <issuer>` once it accepts requests.
 */
import { createServer } from 'node:http';
import Provider from 'oidc-provider';
import type { AuthorizationServerOptions } from './authorization-server.options';
import { completeInteraction } from './headless-interaction';
import { INTERACTION_PATH, oidcProviderConfiguration } from './oidc-provider.configuration';

function main(): void {
  const options = JSON.parse(process.env.OAUTH_SERVER_OPTIONS ?? '') as AuthorizationServerOptions;
  const port = Number(process.env.OAUTH_SERVER_PORT);
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, oidcProviderConfiguration(options));
  provider.on('server_error', (_ctx, error) =>
    process.stderr.write(`server_error: ${error.stack}\n`),
  );
  const handleProtocol = provider.callback();
  const defaultAccount = options.defaultAccount ?? 'alice';

  const server = createServer((req, res) => {
    if (!req.url?.startsWith(INTERACTION_PATH)) return handleProtocol(req, res);
    completeInteraction(provider, defaultAccount, req, res).catch((error: unknown) => {
      process.stderr.write(`interaction failed: ${String(error)}\n`);
      res.writeHead(500).end(String(error));
    });
  });
  server.listen(port, '127.0.0.1', () => {
    process.stdout.write(`authorization server listening ${issuer}\n`);
  });
  // SIGTERM from the test: close the port before exiting so a restart can bind it again.
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

main();
