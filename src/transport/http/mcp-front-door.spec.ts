import { once } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { DEFAULT_CONFIG } from '../../config/config.defaults';
import { McpFrontDoor } from './mcp-front-door';
import { McpPostHandler } from './mcp-post.handler';
import { OriginMiddleware } from './origin.middleware';
import { RawBodyMiddleware } from './raw-body.middleware';

/**
 * The front door on a real HTTP server, with the real Origin and body steps.
 * The MCP handler is replaced by one that fails, to reach the error path
 * the end-to-end suites cannot provoke; everything else goes to the server's
 * own listener (Express in the gateway, a marker here).
 */
describe('McpFrontDoor', () => {
  let server: Server;
  let base: string;
  const seen: string[] = [];

  beforeAll(async () => {
    const config = structuredClone(DEFAULT_CONFIG);
    const failing = {
      handle: (req: IncomingMessage) => {
        seen.push(`${req.method} ${req.url}`);
        return Promise.reject(new Error('handler exploded'));
      },
    } as unknown as McpPostHandler;
    const door = new McpFrontDoor(
      config,
      new OriginMiddleware(config),
      new RawBodyMiddleware(config),
      failing,
    );
    server = createServer((_req: IncomingMessage, res: ServerResponse) => {
      res.statusCode = 418;
      res.end('fallback');
    });
    door.install(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const postMcp = (path = '/mcp', headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });

  it('answers a failing POST /mcp with 500 and a JSON-RPC error body, and stays up', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await postMcp(i === 0 ? '/mcp' : '/mcp/?x=1');
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32603,
          message: 'Internal server error',
          data: { retryable: false, http_status: 500 },
        },
      });
    }
    expect(seen).toEqual(['POST /mcp', 'POST /mcp/?x=1']);
  });

  it('refuses a foreign Origin before the handler runs', async () => {
    seen.length = 0;
    const res = await postMcp('/mcp', { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(seen).toEqual([]);
  });

  it('hands every other request to the server listener it was installed before', async () => {
    const other = await fetch(`${base}/health`);
    expect(other.status).toBe(418);
    expect(await other.text()).toBe('fallback');
    const get = await fetch(`${base}/mcp`);
    expect(get.status).toBe(418);
    const otherPath = await postMcp('/mcp/extra');
    expect(otherPath.status).toBe(418);
  });

  it('refuses to install over anything but exactly one listener', () => {
    const config = structuredClone(DEFAULT_CONFIG);
    const door = new McpFrontDoor(
      config,
      new OriginMiddleware(config),
      new RawBodyMiddleware(config),
      {} as McpPostHandler,
    );
    expect(() => door.install(createServer())).toThrow(/exactly one request listener/);
  });
});
