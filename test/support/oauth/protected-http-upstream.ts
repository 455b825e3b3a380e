import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type Express, type RequestHandler } from 'express';
import { once } from 'node:events';
import type { IncomingHttpHeaders, Server as HttpServer } from 'node:http';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';

/**
 * A real SDK MCP server that is an OAuth resource server of its own, over Streamable HTTP
 * (`/mcp`, stateless) and the legacy HTTP + SSE transport (`/sse` and `/messages`, one resource
 * `/sse`): the SDK's `requireBearerAuth` admits a request only with a JWT that its authorization
 * server signed (JWKS), whose `iss` is that server and whose `aud` is the resource; each resource
 * serves its RFC 9728 metadata. It keeps the headers of every request it receives, and `revoked`
 * makes it refuse tokens it accepted before. Its one tool, `whoami`, answers with the client id
 * of the token it was called with.
 */
export class ProtectedHttpUpstream {
  /** The headers of every request, in order, whatever its path and whether it was admitted. */
  readonly received: IncomingHttpHeaders[] = [];
  /** Tokens refused from now on, however valid, as a revoked token would be. */
  readonly revoked = new Set<string>();

  private http?: HttpServer;
  private readonly sseSessions = new Map<string, SSEServerTransport>();

  private constructor(private readonly origin: string) {}

  /** The Streamable HTTP endpoint, and its resource URI. */
  get url(): string {
    return `${this.origin}/mcp`;
  }

  /** The legacy SSE endpoint, and the resource URI of the legacy pair. */
  get sseUrl(): string {
    return `${this.origin}/sse`;
  }

  /** Listens on `port` (chosen first: the authorization server must know the URLs as resources). */
  static async start(
    port: number,
    issuer: string,
    jwksUri: string,
  ): Promise<ProtectedHttpUpstream> {
    const upstream = new ProtectedHttpUpstream(`http://127.0.0.1:${port}`);
    const keys = createRemoteJWKSet(new URL(jwksUri));
    const app = express();
    app.use((req, _res, next) => {
      upstream.received.push({ ...req.headers });
      next();
    });
    const streamable = upstream.protect(app, 'mcp', issuer, keys);
    app.all('/mcp', streamable, express.json(), (req, res) => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close());
      void whoamiServer()
        .connect(transport)
        .then(() => transport.handleRequest(req, res, req.body));
    });
    const legacy = upstream.protect(app, 'sse', issuer, keys);
    app.get('/sse', legacy, (_req, res) => {
      const transport = new SSEServerTransport('/messages', res);
      upstream.sseSessions.set(transport.sessionId, transport);
      res.on('close', () => upstream.sseSessions.delete(transport.sessionId));
      void whoamiServer().connect(transport);
    });
    app.post('/messages', legacy, express.json(), (req, res) => {
      const sessionId = req.query.sessionId;
      const transport =
        typeof sessionId === 'string' ? upstream.sseSessions.get(sessionId) : undefined;
      if (!transport) res.status(404).end();
      else void transport.handlePostMessage(req, res, req.body);
    });
    upstream.http = app.listen(port, '127.0.0.1');
    await once(upstream.http, 'listening');
    return upstream;
  }

  /** Every Authorization header value received. */
  get authorizations(): string[] {
    return this.received.flatMap((headers) => headers.authorization ?? []);
  }

  async stop(): Promise<void> {
    const http = this.http;
    if (!http) return;
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }

  /** Serves the metadata of the resource `/<name>` and returns the middleware that guards it. */
  private protect(
    app: Express,
    name: string,
    issuer: string,
    keys: JWTVerifyGetKey,
  ): RequestHandler {
    const resource = `${this.origin}/${name}`;
    const metadataPath = `/.well-known/oauth-protected-resource/${name}`;
    app.get(metadataPath, (_req, res) => {
      res.json({
        resource,
        authorization_servers: [issuer],
        scopes_supported: ['tools'],
        bearer_methods_supported: ['header'],
      });
    });
    return requireBearerAuth({
      verifier: jwtVerifier(issuer, keys, resource, this.revoked),
      resourceMetadataUrl: `${this.origin}${metadataPath}`,
      expectedResource: new URL(resource),
    });
  }
}

/** Checks a JWT against the issuer's keys, its `iss`, and `aud` = the resource. */
function jwtVerifier(
  issuer: string,
  keys: JWTVerifyGetKey,
  resource: string,
  revoked: ReadonlySet<string>,
) {
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

function whoamiServer(): McpServer {
  const server = new McpServer({ name: 'protected-upstream', version: '1.0.0' });
  server.registerTool('whoami', { description: 'The client id of the calling token' }, (extra) => ({
    content: [{ type: 'text', text: extra.authInfo?.clientId ?? '' }],
  }));
  return server;
}
