import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { allOrNothing } from './governed-clients';
import { HttpGatewayChild } from './http-child';
import { RoundRobinProxy } from '../../bench/shared/round-robin-proxy';
import { waitUntil } from './sdk-clients';
import { makeTempDir, removeDir } from './skills-dir';

export const REPLICA_CLIENT_ID = 'replicas-e2e';

/** An SDK client connected through the proxy, and the replica that holds its standalone GET stream. */
export interface ReplicaClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  streamHolder: number;
}

/**
 * Two gateway processes sharing the machine's Redis (`state.driver: redis`,
 * one key prefix per suite) behind a RoundRobinProxy, for the shared-session
 * suites. `env` adds settings both replicas get (a skills dir, say).
 */
export class SharedReplicas {
  private constructor(
    readonly replicas: HttpGatewayChild[],
    readonly proxy: RoundRobinProxy,
    /** `state.key_prefix` of both replicas: every Redis key of the suite starts with it. */
    readonly prefix: string,
    private readonly dir: string,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<SharedReplicas> {
    const dir = makeTempDir('shared-sessions');
    const prefix = `owlclaw-test-${randomUUID().slice(0, 8)}:`;
    const replicaEnv = (name: string) => ({
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: '0',
      MCP_SERVER_STATE_DRIVER: 'redis',
      MCP_SERVER_STATE_REDIS_URL: 'redis://127.0.0.1:6379',
      MCP_SERVER_STATE_KEY_PREFIX: prefix,
      MCP_SERVER_LEDGER_SQLITE_PATH: join(dir, `${name}.db`),
      ...env,
    });
    const replicas = await allOrNothing([
      HttpGatewayChild.start(replicaEnv('a')),
      HttpGatewayChild.start(replicaEnv('b')),
    ]);
    const proxy = await RoundRobinProxy.start(replicas.map((r) => r.baseUrl));
    return new SharedReplicas(replicas, proxy, prefix, dir);
  }

  async stop(): Promise<void> {
    await this.proxy.stop();
    await Promise.all(this.replicas.map((r) => r.stop()));
    removeDir(this.dir);
  }

  /** A client of the proxy that declares sampling; not connected. */
  sdkClient(): { client: Client; transport: StreamableHTTPClientTransport } {
    const client = new Client(
      { name: 'replicas-e2e', version: '1.0.0' },
      { capabilities: { sampling: {} } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(`${this.proxy.url}/mcp`), {
      requestInit: { headers: { 'X-MCP-Client-ID': REPLICA_CLIENT_ID } },
    });
    return { client, transport };
  }

  /**
   * Connects `client` and waits for its standalone GET stream to be open, so
   * that from then on the client's POSTs alternate without the GET in between.
   */
  async connect(
    pair: { client: Client; transport: StreamableHTTPClientTransport } = this.sdkClient(),
  ): Promise<ReplicaClient> {
    const gets = this.proxy.served.filter((r) => r.method === 'GET').length;
    await pair.client.connect(pair.transport);
    await waitUntil(
      () => this.proxy.served.filter((r) => r.method === 'GET').length > gets,
      'the standalone GET stream',
    );
    const streamHolder = this.proxy.served.filter((r) => r.method === 'GET').at(-1)!.backend;
    return { ...pair, streamHolder };
  }

  /** Pings until the proxy's next request goes to `backend` (the proxy alternates strictly). */
  async steerTo(client: Client, backend: number): Promise<void> {
    while (this.proxy.nextBackend !== backend) await client.ping();
  }

  /** One JSON-RPC request straight to a replica (not through the proxy), on an existing session. */
  async postTo(
    backend: number,
    sessionId: string,
    body: object,
    clientId = REPLICA_CLIENT_ID,
  ): Promise<Response> {
    return fetch(`${this.replicas[backend].baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'mcp-session-id': sessionId,
        'x-mcp-client-id': clientId,
      },
      body: JSON.stringify({ jsonrpc: '2.0', ...body }),
    });
  }
}

/** Reads until `accept` takes the value (each read waits for the last), or fails after `timeoutMs`. */
export async function pollUntil<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  what: string,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
  }
}
