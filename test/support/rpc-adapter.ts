import request from 'supertest';
import { HttpGatewayHandle, startHttpGateway } from './http-gateway';
import { StdioGatewayProcess } from './stdio-process';
import { spawnTracked } from './tracked-gateways';

export type TransportName = 'http' | 'stdio';
export const TRANSPORTS: TransportName[] = ['http', 'stdio'];

/** A frame as written on the wire: raw text, raw bytes, or a value that is JSON-encoded. */
export type Frame = string | Buffer | object;

export type Json = Record<string, unknown>;

export interface RpcReply {
  /** The parsed answer: one response, a batch array, or undefined when nothing came back. */
  body: unknown;
  /** The answer exactly as received ('' when nothing came back). */
  raw: string;
  /** HTTP only. */
  status?: number;
  /** HTTP only. */
  contentType?: string;
}

/**
 * One MCP session of a real gateway (fixture methods included), reduced to
 * "write a frame, get what comes back", so that one scenario table runs over
 * Streamable HTTP and over stdio alike.
 */
export interface RpcAdapter {
  readonly name: TransportName;
  /** initialize + notifications/initialized; resolves with the initialize response. */
  initialize(protocolVersion?: string): Promise<Json>;
  /** Writes one frame and resolves with its answer (a frame that gets none must use sendUnanswered). */
  send(frame: Frame): Promise<RpcReply>;
  /**
   * Writes one frame that should get no answer. stdio proves the silence
   * with a ping barrier behind it plus a quiet period; HTTP always answers
   * something (202 with an empty body for notifications).
   */
  sendUnanswered(frame: Frame): Promise<RpcReply>;
  close(): Promise<void>;
}

export interface AdapterOptions {
  devMode?: boolean;
}

/** Booting a gateway child can take a while on a busy machine; hooks that open adapters use this. */
export const BOOT_TIMEOUT_MS = 60_000;

export function openAdapter(
  name: TransportName,
  options: AdapterOptions = {},
): Promise<RpcAdapter> {
  return name === 'http' ? HttpAdapter.open(options) : StdioAdapter.open(options);
}

export function encodeFrame(frame: Frame): Buffer {
  if (Buffer.isBuffer(frame)) return frame;
  return Buffer.from(typeof frame === 'string' ? frame : JSON.stringify(frame));
}

export const CLIENT_INFO = { name: 'protocol-spec', version: '1.0.0' };

function initializeRequest(id: string, protocolVersion: string): Json {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: CLIENT_INFO },
  };
}

export class HttpAdapter implements RpcAdapter {
  readonly name = 'http' as const;
  sessionId?: string;
  protocolVersion?: string;

  private constructor(readonly gateway: HttpGatewayHandle) {}

  static async open(options: AdapterOptions): Promise<HttpAdapter> {
    return new HttpAdapter(
      await startHttpGateway({ fixtures: true, config: { dev_mode: options.devMode === true } }),
    );
  }

  async initialize(protocolVersion = '2025-11-25'): Promise<Json> {
    const res = await this.post(initializeRequest('init', protocolVersion));
    const sessionId = res.headers['mcp-session-id'];
    if (res.status !== 200 || typeof sessionId !== 'string') {
      throw new Error(`initialize failed: ${res.status} ${res.text}`);
    }
    this.sessionId = sessionId;
    const body = JSON.parse(res.text) as Json;
    this.protocolVersion = (body.result as Json).protocolVersion as string;
    const ack = await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    if (ack.status !== 202) throw new Error(`notifications/initialized got ${ack.status}`);
    return body;
  }

  async send(frame: Frame): Promise<RpcReply> {
    const res = await this.post(frame);
    return {
      status: res.status,
      contentType: res.headers['content-type'],
      raw: res.text,
      body: res.text === '' ? undefined : (JSON.parse(res.text) as unknown),
    };
  }

  sendUnanswered(frame: Frame): Promise<RpcReply> {
    return this.send(frame);
  }

  /** POST /mcp the way a conforming client does: session and version headers once known. */
  post(frame: Frame) {
    const req = request(this.gateway.baseUrl)
      .post('/mcp')
      .set('Content-Type', 'application/json')
      .set('Accept', 'application/json, text/event-stream')
      // Bytes go out untouched (superagent would JSON-encode a Buffer otherwise).
      .serialize((data: unknown) => data as string);
    if (this.sessionId) req.set('Mcp-Session-Id', this.sessionId);
    if (this.protocolVersion) req.set('MCP-Protocol-Version', this.protocolVersion);
    return req.send(encodeFrame(frame) as unknown as string);
  }

  close(): Promise<void> {
    return this.gateway.close();
  }
}

const QUIET_MS = 150;

export class StdioAdapter implements RpcAdapter {
  readonly name = 'stdio' as const;
  private barriers = 0;

  private constructor(readonly process: StdioGatewayProcess) {}

  static async open(options: AdapterOptions): Promise<StdioAdapter> {
    const env: Record<string, string> = {};
    if (options.devMode) env.MCP_SERVER_DEV_MODE = 'true';
    return new StdioAdapter(await spawnTracked({ fixtures: true, env }));
  }

  async initialize(protocolVersion = '2025-11-25'): Promise<Json> {
    const reply = await this.send(initializeRequest('init', protocolVersion));
    const body = reply.body as Json;
    if (!('result' in body)) throw new Error(`initialize failed: ${reply.raw}`);
    await this.sendUnanswered({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return body;
  }

  /** Each frame is answered by at most one stdout line: a response or a batch array. */
  async send(frame: Frame): Promise<RpcReply> {
    const start = this.process.stdoutLines.length;
    this.write(frame);
    await waitUntil(
      () => this.process.stdoutLines.length > start,
      10_000,
      () => `no stdout line for ${describe(frame)}; stderr:\n${this.process.stderr.slice(-2000)}`,
    );
    const raw = this.process.stdoutLines[start];
    return { raw, body: JSON.parse(raw) as unknown };
  }

  async sendUnanswered(frame: Frame): Promise<RpcReply> {
    const start = this.process.stdoutLines.length;
    const barrier = `barrier-${++this.barriers}`;
    this.write(frame);
    this.write({ jsonrpc: '2.0', id: barrier, method: 'ping' });
    const isBarrier = (line: string) => (JSON.parse(line) as Json).id === barrier;
    await waitUntil(
      () => this.process.stdoutLines.slice(start).some(isBarrier),
      10_000,
      () => `barrier ping not answered; stderr:\n${this.process.stderr.slice(-2000)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    const others = this.process.stdoutLines.slice(start).filter((line) => !isBarrier(line));
    return {
      raw: others.join('\n'),
      body: others.length === 0 ? undefined : others.map((line) => JSON.parse(line) as unknown),
    };
  }

  write(frame: Frame): void {
    this.process.child.stdin.write(Buffer.concat([encodeFrame(frame), Buffer.from('\n')]));
  }

  async close(): Promise<void> {
    if (this.process.child.exitCode === null && this.process.child.signalCode === null) {
      await this.process.endInput();
    }
    await this.process.kill();
  }
}

function describe(frame: Frame): string {
  return Buffer.isBuffer(frame) ? `<${frame.length} bytes>` : JSON.stringify(frame).slice(0, 200);
}

/** Polls `test` every few milliseconds; rejects with `explain()` after `timeoutMs`. */
export async function waitUntil(
  test: () => boolean,
  timeoutMs = 5_000,
  explain: () => string = () => 'condition not met',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`${explain()} (after ${timeoutMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Asserts the JSON-RPC error envelope: jsonrpc "2.0", the exact id, the code,
 * and (over HTTP) a JSON content type. Returns the error object.
 */
export function expectRpcError(
  reply: RpcReply,
  code: number,
  id: string | number | null,
): { code: number; message: string; data?: Json } {
  if (reply.status !== undefined) {
    expect(reply.contentType).toMatch(/^application\/json\b/);
  }
  const body = reply.body as Json;
  expect(body).toEqual(
    expect.objectContaining({ jsonrpc: '2.0', id, error: expect.objectContaining({ code }) }),
  );
  expect(body).not.toHaveProperty('result');
  return body.error as { code: number; message: string; data?: Json };
}

/** Asserts a success envelope and returns its result. */
export function expectRpcResult(reply: RpcReply, id: string | number): Json {
  if (reply.status !== undefined) {
    expect(reply.status).toBe(200);
    expect(reply.contentType).toMatch(/^application\/json\b/);
  }
  const body = reply.body as Json;
  expect(body).toEqual(expect.objectContaining({ jsonrpc: '2.0', id }));
  expect(body).not.toHaveProperty('error');
  return body.result as Json;
}
