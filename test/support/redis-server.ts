import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A port that was free a moment ago (bound to port 0, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A private redis-server for tests that stop Redis under a running gateway:
 * nothing kept on disk, so a restart on the same port comes back empty.
 */
export class RedisServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(port: number, timeoutMs = 10_000): Promise<RedisServer> {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`redis-server did not start on ${port}:\n${output}`));
      }, timeoutMs);
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}):\n${output}`));
      });
    });
    return new RedisServer(child, port);
  }

  /** Gone at once, as in a crash: no shutdown, no goodbye to clients. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await exited;
  }
}
