import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type Request, type Response } from 'express';
import { once } from 'node:events';
import type { IncomingHttpHeaders, Server as HttpServer } from 'node:http';
import { createRemoteJWKSet, jwtVerify } from 'jose';

/**
 * A real SDK MCP server over Streamable HTTP (stateless) that is an OAuth resource server of its
 * own: the SDK's `requireBearerAuth` admits a request only with a JWT that its authorization
 * server signed (JWKS), whose `iss` is that server and whose `aud` is this upstream's URL; it
 * serves its RFC 9728 metadata, and it keeps the headers of every request it receives.
 * Its one tool, `whoami`, answers with the client id of the token it was called with; `revoked`
 * makes it refuse tokens it accepted before.
 */
export class ProtectedHttpUpstream {
  /** The headers of every request, in order, whatever its path and whether it was admitted. */
  readonly received: IncomingHttpHeaders[] = [];
  /** Tokens refused from now on, however valid, as a revoked token would be. */
  readonly revoked = new Set<string>();

  private http?: HttpServer;

  private constructor(readonly url: string) {}

  /** Listens on `port` (chosen first: the authorization server must know the URL as a resource). */
  static async start(
    port: number,
    issuer: string,
    jwksUri: string,
  ): Promise<ProtectedHttpUpstream> {
    const url = `http://127.0.0.1:${port}/mcp`;
    const metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
    const upstream = new ProtectedHttpUpstream(url);
    const app = express();
    app.use((req, _res, next) => {
      upstream.received.push({ ...req.headers });
      next();
    });
    app.get('/.well-known/oauth-protected-resource/mcp', (_req, res) => {
      res.json({
        resource: url,
        authorization_servers: [issuer],
        scopes_supported: ['tools'],
        bearer_methods_supported: ['header'],
      });
    });
    const verifier = jwtVerifier(issuer, jwksUri, url, upstream.revoked);
    app.all(
      '/mcp',
      requireBearerAuth({
        verifier,
        resourceMetadataUrl: metadataUrl,
        expectedResource: new URL(url),
      }),
      express.json(),
      (req, res) => void serveMcp(req, res),
    );
    upstream.http = app.listen(port, '127.0.0.1');
    await once(upstream.http, 'listening');
    return upstream;
  }

  /** Every Authorization header value received on the MCP endpoint. */
  get authorizations(): string[] {
    return this.received.flatMap((headers) => headers.authorization ?? []);
  }

  async stop(): Promise<void> {
    const http = this.http;
    if (!http) return;
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
}

/** Checks a JWT against the issuer's JWKS, its `iss`, and `aud` = this upstream. */
function jwtVerifier(issuer: string, jwksUri: string, resource: string, revoked: Set<string>) {
  const keys = createRemoteJWKSet(new URL(jwksUri));
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      if (revoked.has(token)) throw new InvalidTokenError('token revoked');
      try {
        const { payload } = await jwtVerify(token, keys, { issuer, audience: resource });
        const clientId = typeof payload.client_id === 'string' ? payload.client_id : payload.sub;
        return {
          token,
          clientId: clientId ?? '',
          scopes: typeof payload.scope === 'string' ? payload.scope.split(' ') : [],
          expiresAt: payload.exp,
          resource: new URL(resource),
        };
      } catch (error) {
        throw new InvalidTokenError(error instanceof Error ? error.message : String(error));
      }
    },
  };
}

async function serveMcp(req: Request, res: Response): Promise<void> {
  const server = new McpServer({ name: 'protected-upstream', version: '1.0.0' });
  server.registerTool('whoami', { description: 'The client id of the calling token' }, (extra) => ({
    content: [{ type: 'text', text: extra.authInfo?.clientId ?? '' }],
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => void transport.close());
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}
