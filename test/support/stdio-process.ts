import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { testGatewayEnv } from './test-defaults';
import { TYPESCRIPT_LOADER } from './typescript-loader';

export const REPO_ROOT = join(__dirname, '..', '..');
export const CLI_ENTRY = join(REPO_ROOT, 'dist', 'cli', 'main.js');
export const FIXTURE_ENTRY = join(REPO_ROOT, 'test', 'fixtures', 'fixture-gateway.ts');

export interface SpawnOptions {
  /** Run test/fixtures/fixture-gateway.ts (real bootstrap plus the fixture module) instead of the built CLI. */
  fixtures?: boolean;
  env?: Record<string, string>;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A real gateway child process speaking MCP over stdio, with every stdout line
 * kept so that tests can assert the stream stays pure JSON-RPC.
 */
export class StdioGatewayProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdoutLines: string[] = [];
  stderr = '';
  readonly exited: Promise<ExitInfo>;
  private partial = '';
  private waiters: Array<{
    test: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  }> = [];
  private nextId = 1000;

  constructor(options: SpawnOptions = {}) {
    const args = options.fixtures
      ? ['-r', TYPESCRIPT_LOADER, FIXTURE_ENTRY, 'stdio']
      : [CLI_ENTRY, 'mcp-server', 'start', '--transport', 'stdio'];
    this.child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', ...testGatewayEnv(), ...options.env },
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.onStdout(chunk));
    this.child.stderr.on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  /** Every parsed stdout message so far. Throws if any line is not JSON. */
  get messages(): Array<Record<string, unknown>> {
    return this.stdoutLines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  send(message: unknown): void {
    this.child.stdin.write(
      typeof message === 'string' ? `${message}\n` : `${JSON.stringify(message)}\n`,
    );
  }

  /** Sends a request and resolves with the response carrying its id. */
  request(
    method: string,
    params?: Record<string, unknown>,
    id: string | number = this.nextId++,
  ): Promise<Record<string, unknown>> {
    const waiting = this.waitFor((m) => m.id === id && !('method' in m));
    this.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    return waiting;
  }

  async initialize(protocolVersion = '2025-11-25'): Promise<Record<string, unknown>> {
    const response = await this.request('initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'jest', version: '1.0.0' },
    });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response;
  }

  waitFor(
    test: (m: Record<string, unknown>) => boolean,
    timeoutMs = 10_000,
  ): Promise<Record<string, unknown>> {
    const seen = this.messages.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`timed out waiting for a message; stderr:\n${this.stderr.slice(-2000)}`),
          ),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** Closes stdin (EOF) and resolves with the exit and how long it took. */
  async endInput(): Promise<ExitInfo & { ms: number }> {
    const started = Date.now();
    this.child.stdin.end();
    const info = await this.exited;
    return { ...info, ms: Date.now() - started };
  }

  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }

  private onStdout(chunk: string): void {
    this.partial += chunk;
    let newline = this.partial.indexOf('\n');
    while (newline !== -1) {
      const line = this.partial.slice(0, newline);
      this.partial = this.partial.slice(newline + 1);
      this.stdoutLines.push(line);
      this.deliver(line);
      newline = this.partial.indexOf('\n');
    }
  }

  private deliver(line: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return; // Kept in stdoutLines; the purity assertions report it.
    }
    for (const waiter of [...this.waiters]) {
      if (waiter.test(message)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  }
}

/** Waits for the stderr log line that says the stdio transport is serving. */
export async function spawnReady(options: SpawnOptions = {}): Promise<StdioGatewayProcess> {
  const gateway = new StdioGatewayProcess(options);
  const deadline = Date.now() + 20_000;
  while (!gateway.stderr.includes('stdio transport ready')) {
    if (Date.now() > deadline) throw new Error(`stdio gateway did not start:\n${gateway.stderr}`);
    if (gateway.child.exitCode !== null)
      throw new Error(`stdio gateway exited:\n${gateway.stderr}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return gateway;
}
