import { NestExpressApplication } from '@nestjs/platform-express';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { createHttpGateway, listenHttpGateway } from '../../src/bootstrap/http.bootstrap';
import { loadGatewayConfig, loadGatewayConfigWithSource } from '../../src/config/config.loader';
import { FixtureModule } from '../fixtures/fixture.module';
import { HttpGatewayChild } from './http-child';
import { StdioGatewayProcess } from './stdio-process';
import { readLedgerRows } from './sqlite-ledger';

/*
 * Clients of a governed gateway, the same over both transports, so that a
 * governance scenario is written once: over HTTP several clients share one
 * gateway (X-MCP-Client-ID or an API key names each); over stdio each client
 * is its own gateway process (MCP_CLIENT_ID), all reading one config file
 * and one SQLite ledger.
 */

export type TransportName = 'http' | 'stdio';
export type Json = Record<string, unknown>;

export interface Reply {
  /** The JSON-RPC response (over HTTP, the JSON-RPC error body of a refusal too). */
  body: Json;
  /** HTTP only. */
  status?: number;
  /** HTTP only, names in lower case. */
  headers?: Record<string, string>;
}

export interface GovernedClient {
  readonly clientId: string;
  rpc(method: string, params?: Json): Promise<Reply>;
  counts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

export interface ClientSpec {
  /** The client id the gateway should see (X-MCP-Client-ID or MCP_CLIENT_ID). */
  id: string;
  /** HTTP: sent on every request instead of X-MCP-Client-ID (api_key mode). */
  headers?: Record<string, string>;
  /** stdio: more environment for the gateway process (api_key mode: MCP_API_KEY). */
  env?: Record<string, string>;
}

export interface ClientGroup {
  clients: GovernedClient[];
  /** HTTP only: where the gateway listens. */
  baseUrl?: string;
  close(): Promise<void>;
}

/** Writes `{mcp_server: section}` as YAML and returns the path. */
export function writeConfig(dir: string, name: string, section: Json): string {
  const path = join(dir, name);
  writeFileSync(path, stringify({ mcp_server: section }));
  return path;
}

export async function openClients(
  transport: TransportName,
  configPath: string,
  specs: ClientSpec[],
): Promise<ClientGroup> {
  return transport === 'http'
    ? openHttpClients(configPath, specs)
    : openStdioClients(configPath, specs);
}

async function openHttpClients(configPath: string, specs: ClientSpec[]): Promise<ClientGroup> {
  const { config, source } = loadGatewayConfigWithSource({
    configPath,
    env: {},
    overrides: { transport: 'http', http: { host: '127.0.0.1', port: 0 } },
  });
  const app: NestExpressApplication = await createHttpGateway({
    config,
    configSource: source,
    logger: false,
    extraModules: [FixtureModule],
  });
  const address = await listenHttpGateway(app, config);
  const baseUrl = `http://127.0.0.1:${address.port}`;
  try {
    const clients = await Promise.all(specs.map((spec) => HttpClient.open(baseUrl, spec)));
    return { clients, baseUrl, close: () => app.close() };
  } catch (err) {
    await app.close();
    throw err;
  }
}

async function openStdioClients(configPath: string, specs: ClientSpec[]): Promise<ClientGroup> {
  const clients = await allOrNothing(
    specs.map((spec) => StdioClient.open(configPath, spec.id, spec.env)),
  );
  return { clients, close: async () => void (await Promise.all(clients.map((c) => c.close()))) };
}

/** Every value, or (having closed those that did open) the first failure. */
export async function allOrNothing<T extends { close(): Promise<void> }>(
  pending: Array<Promise<T>>,
): Promise<T[]> {
  const settled = await Promise.allSettled(pending);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (!failed) return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
  await Promise.all(
    settled.map((r) => (r.status === 'fulfilled' ? r.value.close() : Promise.resolve())),
  );
  throw failed.reason;
}

/** A Streamable HTTP session, with the client's identity on every request. */
export class HttpClient implements GovernedClient {
  private sessionId?: string;
  private nextId = 1;

  private constructor(
    readonly baseUrl: string,
    readonly clientId: string,
    private readonly identity: Record<string, string>,
  ) {}

  static async open(baseUrl: string, spec: ClientSpec): Promise<HttpClient> {
    const client = new HttpClient(baseUrl, spec.id, spec.headers ?? { 'X-MCP-Client-ID': spec.id });
    const init = await client.initialize();
    if (init.status !== 200)
      throw new Error(`initialize refused: ${init.status} ${JSON.stringify(init.body)}`);
    return client;
  }

  /** initialize + notifications/initialized; the reply as is (a refusal is not thrown). */
  async initialize(headers: Record<string, string> = {}): Promise<Reply> {
    const reply = await this.post(
      {
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'gov', version: '1' },
        },
      },
      headers,
    );
    this.sessionId = reply.headers?.['mcp-session-id'];
    if (this.sessionId) await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return reply;
  }

  rpc(method: string, params: Json = {}, headers: Record<string, string> = {}): Promise<Reply> {
    return this.post({ jsonrpc: '2.0', id: this.nextId++, method, params }, headers);
  }

  async counts(): Promise<Record<string, number>> {
    return (await this.rpc('govfixture/counts')).body.result as Record<string, number>;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** `headers` replace the client's identity headers for this one request when they name one. */
  async post(message: Json, headers: Record<string, string> = {}): Promise<Reply> {
    const replacesIdentity = Object.keys(headers).some((h) =>
      ['authorization', 'x-mcp-client-id'].includes(h.toLowerCase()),
    );
    const res = await fetch(`${this.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...(replacesIdentity ? {} : this.identity),
        ...(this.sessionId
          ? { 'Mcp-Session-Id': this.sessionId, 'MCP-Protocol-Version': '2025-06-18' }
          : {}),
        ...headers,
      },
      body: JSON.stringify(message),
    });
    const text = await res.text();
    const lower: Record<string, string> = {};
    res.headers.forEach((value, name) => (lower[name.toLowerCase()] = value));
    return {
      status: res.status,
      headers: lower,
      body: text === '' ? {} : (JSON.parse(text) as Json),
    };
  }
}

/** One stdio gateway process, whose single client is named by MCP_CLIENT_ID. */
export class StdioClient implements GovernedClient {
  private constructor(
    readonly process: StdioGatewayProcess,
    readonly clientId: string,
  ) {}

  static async open(configPath: string, clientId: string, env: Record<string, string> = {}) {
    const gateway = await spawnStdioGateway({
      ...ownSettings(configPath),
      MCP_SERVER_CONFIG: configPath,
      MCP_CLIENT_ID: clientId,
      ...env,
    });
    const init = await gateway.initialize('2025-06-18');
    if (!('result' in init)) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
    return new StdioClient(gateway, clientId);
  }

  async rpc(method: string, params: Json = {}): Promise<Reply> {
    return { body: await this.process.request(method, params) };
  }

  async counts(): Promise<Record<string, number>> {
    return (await this.rpc('govfixture/counts')).body.result as Record<string, number>;
  }

  /** EOF on stdin: an orderly stop (in-flight calls and the ledger drain), then the exit. */
  async close(): Promise<void> {
    if (this.process.child.exitCode === null && this.process.child.signalCode === null) {
      await this.process.endInput();
    }
    await this.process.kill();
  }
}

/**
 * The shared harness starts every spawned gateway with a temp ledger and
 * generous quotas as MCP_SERVER_* variables (test-defaults.ts), and the
 * environment outranks the config file. Governance suites bring their own
 * ledger and quotas in the file, so the same variables carry the file's values.
 */
function ownSettings(configPath: string): Record<string, string> {
  const { ledger, governance } = loadGatewayConfig({ configPath, env: {} });
  const quota = governance.default_quota;
  return {
    MCP_SERVER_LEDGER_SQLITE_PATH: ledger.sqlite_path,
    MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MONTHLY_BUDGET: String(quota.monthly_budget),
    MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MAX_CALLS_PER_MINUTE: String(quota.max_calls_per_minute),
    MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MAX_CALLS_PER_DAY: String(quota.max_calls_per_day),
    MCP_SERVER_GOVERNANCE_DEFAULT_QUOTA_MAX_COST_PER_CALL: String(quota.max_cost_per_call),
  };
}

/**
 * A stdio fixture gateway, once it says it is serving. Compiling the sources
 * on the fly takes a few CPU seconds per process, much longer on a loaded
 * machine, hence the generous wait; a gateway that never gets ready is killed.
 */
export async function spawnStdioGateway(
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<StdioGatewayProcess> {
  const gateway = new StdioGatewayProcess({ fixtures: true, env });
  const deadline = Date.now() + timeoutMs;
  while (!gateway.stderr.includes('stdio transport ready')) {
    if (gateway.child.exitCode !== null) {
      throw new Error(`stdio gateway exited:\n${gateway.stderr.slice(-3000)}`);
    }
    if (Date.now() > deadline) {
      await gateway.kill();
      throw new Error(
        `stdio gateway not ready after ${timeoutMs} ms:\n${gateway.stderr.slice(-3000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return gateway;
}

/** A client of a gateway in a child process that can be stopped and started again. */
export interface RestartableClient {
  client: GovernedClient;
  /** Stops the gateway in order, starts a new one on the same config, reconnects. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function openRestartable(
  transport: TransportName,
  configPath: string,
  clientId: string,
): Promise<RestartableClient> {
  if (transport === 'stdio') {
    const handle: RestartableClient = {
      client: await StdioClient.open(configPath, clientId),
      restart: async () => {
        await handle.client.close();
        handle.client = await StdioClient.open(configPath, clientId);
      },
      close: () => handle.client.close(),
    };
    return handle;
  }
  let child = await HttpGatewayChild.start({ MCP_SERVER_CONFIG: configPath });
  const handle: RestartableClient = {
    client: await HttpClient.open(child.baseUrl, { id: clientId }),
    restart: async () => {
      await child.stop();
      child = await HttpGatewayChild.start({ MCP_SERVER_CONFIG: configPath });
      handle.client = await HttpClient.open(child.baseUrl, { id: clientId });
    },
    close: () => child.stop(),
  };
  return handle;
}

export interface LedgerRowView {
  client_id: string;
  method: string;
  target: string;
  outcome: string;
  error_code: number | null;
  denial_reason: string | null;
  cost: number;
}

/** The ledger rows of one client, oldest first, read straight from the SQLite file. */
export function ledgerRows(sqlitePath: string, clientId: string): LedgerRowView[] {
  return readLedgerRows<LedgerRowView>(sqlitePath, clientId);
}
