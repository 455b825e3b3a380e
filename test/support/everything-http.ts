import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from './redis-server';
import { EVERYTHING_ENTRY_PATH } from './upstream-records';

/** server-everything from npm running as its own Streamable HTTP server on a free port. */
export class EverythingHttpServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async start(): Promise<EverythingHttpServer> {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING_ENTRY_PATH, 'streamableHttp'], {
      env: { PATH: process.env.PATH ?? '', PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('listening on port')) resolve();
      });
      child.once('exit', (code) =>
        reject(new Error(`server-everything exited (${code}): ${stderr}`)),
      );
    });
    return new EverythingHttpServer(child, `http://127.0.0.1:${port}/mcp`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGKILL');
    await exited;
  }
}
