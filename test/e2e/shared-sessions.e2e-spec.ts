import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { HttpGatewayChild } from '../support/http-child';
import { McpHttpSession } from '../support/mcp-http-session';
import { openSse, SseEvent } from '../support/sse-client';
import { allOrNothing } from '../support/governed-clients';
import { RoundRobinProxy } from '../../bench/shared/round-robin-proxy';
import { allToolNames } from '../support/sdk-list-pages';
import { servicesAvailable, tcpCheck } from '../support/service-availability';
import { makeTempDir, removeDir } from '../support/skills-dir';

/**
 * Two gateway processes sharing the machine's Redis (`state.driver: redis`)
 * behind a balancer without session affinity (RoundRobinProxy: every request
 * to the next replica): the official SDK client's session works as if there
 * were one gateway. Initialize lands on one replica, the next request on the
 * other; a sampling request sent by one replica is answered through the
 * other; DELETE on one ends the session on both.
 */

const available = servicesAvailable('shared sessions e2e', [tcpCheck('Redis', '127.0.0.1', 6379)]);

(available ? describe : describe.skip)('sessions shared by two replicas', () => {
  let dir: string;
  let replicas: HttpGatewayChild[] = [];
  let proxy: RoundRobinProxy;

  beforeAll(async () => {
    dir = makeTempDir('shared-sessions');
    const prefix = `owlclaw-test-${randomUUID().slice(0, 8)}:`;
    const env = (name: string) => ({
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: '0',
      MCP_SERVER_STATE_DRIVER: 'redis',
      MCP_SERVER_STATE_REDIS_URL: 'redis://127.0.0.1:6379',
      MCP_SERVER_STATE_KEY_PREFIX: prefix,
      MCP_SERVER_LEDGER_SQLITE_PATH: join(dir, `${name}.db`),
    });
    replicas = await allOrNothing([
      HttpGatewayChild.start(env('a')),
      HttpGatewayChild.start(env('b')),
    ]);
    proxy = await RoundRobinProxy.start(replicas.map((r) => r.baseUrl));
  }, 180_000);

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all(replicas.map((r) => r.stop()));
    removeDir(dir);
  }, 60_000);

  function sdkClient(): { client: Client; transport: StreamableHTTPClientTransport } {
    const client = new Client(
      { name: 'replicas-e2e', version: '1.0.0' },
      { capabilities: { sampling: {} } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`), {
      requestInit: { headers: { 'X-MCP-Client-ID': 'replicas-e2e' } },
    });
    return { client, transport };
  }

  it('serves one session from both replicas: lists and calls alternate between them', async () => {
    const { client, transport } = sdkClient();
    await client.connect(transport);
    const before = proxy.served.length;
    expect(await allToolNames(client)).toContain('fx_add');
    for (let i = 0; i < 4; i++) {
      const result = await client.callTool({ name: 'fx_add', arguments: { a: i, b: 1 } });
      expect(result.structuredContent).toEqual({ sum: i + 1 });
    }
    const posts = proxy.served.slice(before).filter((r) => r.method === 'POST');
    expect(new Set(posts.map((r) => r.backend))).toEqual(new Set([0, 1]));
    await client.close();
  });

  it('routes the answer to a sampling request back to the replica that asked', async () => {
    const { client, transport } = sdkClient();
    client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
      role: 'assistant',
      model: 'test-model',
      content: {
        type: 'text',
        text: `echo: ${(request.params.messages[0].content as { text: string }).text}`,
      },
    }));
    await client.connect(transport);
    for (let i = 0; i < 2; i++) {
      const result = await client.callTool({ name: 'fx_sample', arguments: { prompt: `p${i}` } });
      expect(JSON.stringify(result.structuredContent ?? result.content)).toContain(`echo: p${i}`);
    }
    await client.close();
  });

  it('resumes the standalone stream at the other replica with Last-Event-ID: what the first sent is replayed', async () => {
    const [a, b] = replicas;
    const headers = { 'x-mcp-client-id': 'resume-e2e' };
    const session = await McpHttpSession.open(a.baseUrl, headers);
    const onA = await session.openStream();
    const listChanged = (seen: number) => (event: SseEvent) =>
      event.data.includes('notifications/tools/list_changed') && onA.events.indexOf(event) >= seen;
    // Each tool registered on A changes A's list: A tells the session on the stream it holds.
    const sent: SseEvent[] = [];
    for (let i = 0; i < 3; i++) {
      const seen = onA.events.length;
      const reply = await session.request(i, 'tools/call', {
        name: 'fx_register',
        arguments: { name: `fx_resume_${i}` },
      });
      expect(reply).toHaveProperty('result');
      sent.push(await onA.next(listChanged(seen)));
    }
    await onA.abort();
    expect(sent.map((event) => event.id)).toEqual([
      expect.stringMatching(/^g[0-9a-f]{8}\/\d+$/),
      expect.any(String),
      expect.any(String),
    ]);

    const resumed = await openSse(`${b.baseUrl}/mcp`, {
      ...headers,
      'mcp-session-id': session.sessionId,
      'mcp-protocol-version': '2025-11-25',
      'last-event-id': sent[0].id!,
    });
    expect(resumed.status).toBe(200);
    const replayed = await resumed.next((event) => event.id === sent[2].id);
    expect(resumed.events.filter((event) => event.id !== undefined).map((e) => e.id)).toEqual([
      sent[1].id,
      sent[2].id,
    ]);
    expect(replayed.data).toBe(sent[2].data);
    await resumed.abort();
    await session.close();
  });

  it('ends the session on both replicas when one of them answers DELETE', async () => {
    const { client, transport } = sdkClient();
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    for (const replica of replicas) {
      const answer = await fetch(`${replica.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
          'x-mcp-client-id': 'replicas-e2e',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(answer.status).toBe(404);
    }
    await client.close();
  });
});
