import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { FIXTURE_ENTRY, REPO_ROOT } from './stdio-process';
import { TYPESCRIPT_LOADER } from './typescript-loader';

/**
 * A gateway serving HTTP in a child process (the real bootstrap plus the
 * fixture module), configured through the environment like the CLI. Its
 * port (config may say 0) is read from its `listening` log line.
 */
export class HttpGatewayChild {
  stderr = '';
  readonly exited: Promise<number | null>;

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly port: number,
  ) {
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** `env` sets MCP_SERVER_* variables; an undefined value removes one of the defaults below. */
  static async start(
    env: Record<string, string | undefined>,
    timeoutMs = 90_000,
  ): Promise<HttpGatewayChild> {
    const child = spawn(process.execPath, ['-r', TYPESCRIPT_LOADER, FIXTURE_ENTRY, 'http'], {
      cwd: REPO_ROOT,
      // No drain delay unless a test asks for one: stops stay quick. (spawn skips undefined values.)
      env: {
        PATH: process.env.PATH ?? '',
        MCP_SERVER_HTTP_DRAIN_DELAY_SECONDS: '0',
        // A stop waits for idle keep-alive connections (fetch keeps them): 1 s instead of 5.
        MCP_SERVER_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '1',
        ...env,
      },
    });
    child.stdout.resume();
    child.stderr.setEncoding('utf8');
    let stderr = '';
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`HTTP gateway did not start:\n${stderr.slice(-3000)}`));
      }, timeoutMs);
      child.stderr.on('data', (chunk: string) => {
        stderr += chunk;
        const match =
          /"port":(\d+)[^\n]*"msg":"listening"|"msg":"listening"[^\n]*"port":(\d+)/.exec(stderr);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1] ?? match[2]));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`HTTP gateway exited (${code}):\n${stderr.slice(-3000)}`));
      });
    });
    const gateway = new HttpGatewayChild(child, port);
    gateway.stderr = stderr;
    child.stderr.on('data', (chunk: string) => (gateway.stderr += chunk));
    return gateway;
  }

  close(): Promise<void> {
    return this.stop();
  }

  /** SIGTERM: an orderly stop (the ledger drains), then wait for the exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}
