import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { testGatewayEnv } from './test-defaults';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  FetchLike,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ClientCapabilities,
  InitializeResult,
  InitializeResultSchema,
  JSONRPCMessage,
  MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { ChildProcess } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { CLI_ENTRY, ExitInfo, FIXTURE_ENTRY, REPO_ROOT } from './stdio-process';
import { VersionPinningTransport } from './version-pinning.transport';
import { TYPESCRIPT_LOADER } from './typescript-loader';

/** The gateway's three MCP transports, named as McpSession.transport names them. */
export const TRANSPORT_KINDS = ['stdio', 'streamable-http', 'legacy-sse'] as const;
export type TransportKind = (typeof TRANSPORT_KINDS)[number];

export type SdkTransport =
  StdioClientTransport | StreamableHTTPClientTransport | SSEClientTransport;

/**
 * Sits between the SDK Client and its transport and keeps every JSON-RPC
 * message as it crossed the wire, in both directions.
 */
export class RecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly sent: JSONRPCMessage[] = [];
  readonly received: JSONRPCMessage[] = [];

  constructor(private readonly inner: Transport) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (e) => this.onerror?.(e);
    this.inner.onmessage = (message, extra) => {
      this.received.push(message);
      this.onmessage?.(message, extra);
    };
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.sent.push(message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}

/** One HTTP exchange made by an SDK HTTP transport (through its `fetch` option). */
export interface HttpExchange {
  method: string;
  url: URL;
  /** The JSON-RPC message(s) a POST carried. */
  body?: unknown;
  /** The MCP-Protocol-Version request header, if the client sent one. */
  protocolVersionHeader: string | null;
  status: number;
  contentType: string | null;
}

function recordingFetch(log: HttpExchange[]): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    const headers = new Headers(init?.headers);
    log.push({
      method: init?.method ?? 'GET',
      url: new URL(url),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      protocolVersionHeader: headers.get('mcp-protocol-version'),
      status: response.status,
      contentType: response.headers.get('content-type'),
    });
    return response;
  };
}

/**
 * The SDK's own stdio transport, plus the child process it spawned (found via
 * Node's `child_process` diagnostics channel, which publishes every spawn
 * synchronously) so that tests can see how it exits.
 */
class ObservedStdioClientTransport extends StdioClientTransport {
  child?: ChildProcess;
  exited?: Promise<ExitInfo>;

  override start(): Promise<void> {
    const spawned: ChildProcess[] = [];
    const onSpawn = (message: unknown) => {
      spawned.push((message as { process: ChildProcess }).process);
    };
    subscribe('child_process', onSpawn);
    let started: Promise<void>;
    try {
      started = super.start();
    } finally {
      unsubscribe('child_process', onSpawn);
    }
    const child = spawned[0];
    if (spawned.length !== 1 || child === undefined) {
      throw new Error(`expected the SDK to spawn one process, saw ${spawned.length}`);
    }
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    return started;
  }
}

export interface SdkClientOptions {
  kind: TransportKind;
  /** HTTP kinds: the gateway's base URL, e.g. http://127.0.0.1:41234. */
  baseUrl?: string;
  /** Forces the protocolVersion the client requests at initialize (VersionPinningTransport). */
  protocolVersion?: string;
  capabilities?: ClientCapabilities;
  /** stdio: spawn the fixture gateway (fixture/* methods) instead of the built CLI. */
  fixtures?: boolean;
  /** stdio: extra environment for the child. */
  env?: Record<string, string>;
  /** Streamable HTTP: headers on every request (e.g. X-MCP-Client-ID to name the client). */
  headers?: Record<string, string>;
}

export interface StdioChild {
  process: ChildProcess;
  exited: Promise<ExitInfo>;
  stderr(): string;
}

/** A connected official SDK client and everything observed on its connection. */
export interface SdkClientHandle {
  kind: TransportKind;
  client: Client;
  transport: SdkTransport;
  wire: RecordingTransport;
  /** HTTP kinds: every request the SDK made, in order. */
  http: HttpExchange[];
  /** stdio only. */
  stdio?: StdioChild;
  /** The initialize response's result as it arrived on the wire. */
  initializeResult: InitializeResult;
  /** HTTP kinds: the gateway's session id (Mcp-Session-Id, or ?sessionId= of the legacy endpoint). */
  serverSessionId?: string;
  /** Errors the SDK reported through Client.onerror. */
  errors: Error[];
  /** Ends the session the way a tidy client would (DELETE for Streamable HTTP), closes, reaps the child. Idempotent. */
  dispose(): Promise<void>;
}

const CLIENT_INFO = { name: 'owlclaw-e2e-sdk-client', version: '1.0.0' };

function createTransport(options: SdkClientOptions, http: HttpExchange[]): SdkTransport {
  if (options.kind === 'stdio') {
    const args = options.fixtures
      ? ['-r', TYPESCRIPT_LOADER, FIXTURE_ENTRY, 'stdio']
      : [CLI_ENTRY, 'mcp-server', 'start', '--transport', 'stdio'];
    return new ObservedStdioClientTransport({
      command: process.execPath,
      args,
      cwd: REPO_ROOT,
      env: { ...getDefaultEnvironment(), ...testGatewayEnv(), ...options.env },
      stderr: 'pipe',
    });
  }
  if (!options.baseUrl) throw new Error(`${options.kind} needs baseUrl`);
  const fetchFn = recordingFetch(http);
  return options.kind === 'streamable-http'
    ? new StreamableHTTPClientTransport(new URL('/mcp', options.baseUrl), {
        fetch: fetchFn,
        requestInit: options.headers ? { headers: options.headers } : undefined,
      })
    : new SSEClientTransport(new URL('/sse', options.baseUrl), { fetch: fetchFn });
}

/**
 * Connects one client per options, concurrently. If any fails, the others are
 * closed before the error is thrown: a suite whose setup fails leaves no
 * gateway process running.
 */
export async function connectSdkClients(
  optionsList: readonly SdkClientOptions[],
): Promise<SdkClientHandle[]> {
  const settled = await Promise.allSettled(optionsList.map((options) => connectSdkClient(options)));
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed === undefined) {
    return settled.map((result) => (result as PromiseFulfilledResult<SdkClientHandle>).value);
  }
  const connected = settled.filter(
    (result): result is PromiseFulfilledResult<SdkClientHandle> => result.status === 'fulfilled',
  );
  await Promise.all(connected.map((result) => result.value.dispose()));
  throw failed.reason;
}

/** Builds an official SDK Client for one transport kind and connects it (initialize included). */
export async function connectSdkClient(options: SdkClientOptions): Promise<SdkClientHandle> {
  const http: HttpExchange[] = [];
  const errors: Error[] = [];
  const transport = createTransport(options, http);
  let stderr = '';
  if (transport instanceof StdioClientTransport) {
    // Piped, not inherited: the gateway's JSON logs stay out of Jest's output, and are kept for diagnosis.
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  }
  const wire = new RecordingTransport(transport);
  const outermost: Transport =
    options.protocolVersion === undefined
      ? wire
      : new VersionPinningTransport(wire, options.protocolVersion);
  const client = new Client(CLIENT_INFO, { capabilities: options.capabilities ?? {} });
  client.onerror = (error) => errors.push(error);

  let stdio: StdioChild | undefined;
  let disposed: Promise<void> | undefined;
  const dispose = (): Promise<void> =>
    (disposed ??= (async () => {
      if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
        await transport.terminateSession().catch(() => undefined);
      }
      await client.close();
      if (stdio) {
        const child = stdio.process;
        const exited = stdio.exited;
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited.finally(() => clearTimeout(timer));
      }
    })());

  try {
    await client.connect(outermost);
  } catch (err) {
    await client.close().catch(() => undefined);
    throw new Error(
      `SDK client over ${options.kind} failed to connect: ${String(err)}${stderr ? `\nstderr:\n${stderr.slice(-2000)}` : ''}`,
      { cause: err },
    );
  }
  if (transport instanceof ObservedStdioClientTransport && transport.child && transport.exited) {
    stdio = { process: transport.child, exited: transport.exited, stderr: () => stderr };
  }

  const initRequest = wire.sent.find((m) => 'method' in m && m.method === 'initialize');
  const initResponse = wire.received.find(
    (m) => initRequest && 'id' in initRequest && 'id' in m && m.id === initRequest.id,
  );
  if (!initResponse || !('result' in initResponse)) {
    await dispose();
    throw new Error('no initialize response was recorded on the wire');
  }
  return {
    kind: options.kind,
    client,
    transport,
    wire,
    http,
    stdio,
    initializeResult: InitializeResultSchema.parse(initResponse.result),
    serverSessionId: serverSessionIdOf(transport, http),
    errors,
    dispose,
  };
}

function serverSessionIdOf(transport: SdkTransport, http: HttpExchange[]): string | undefined {
  if (transport instanceof StreamableHTTPClientTransport) return transport.sessionId;
  if (transport instanceof SSEClientTransport) {
    const post = http.find((x) => x.method === 'POST');
    return post?.url.searchParams.get('sessionId') ?? undefined;
  }
  return undefined;
}

/** Polls until `predicate` holds; fails with `what` after `timeoutMs`. */
export async function waitUntil(
  predicate: () => boolean,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
