import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { JWK } from 'jose';
import { freePort } from '../redis-server';
import { REPO_ROOT } from '../stdio-process';
import type { AuthorizationServerOptions } from './authorization-server.options';
import { generateSigningKey } from './signing-keys';
import { TYPESCRIPT_LOADER } from '../typescript-loader';

const CHILD_ENTRY = join(__dirname, 'authorization-server.child.ts');

export type StartOptions = Omit<AuthorizationServerOptions, 'keys'> & { keys?: JWK[] };

/**
 * A real OAuth 2.1 / OpenID authorization server (oidc-provider) in a child process on a loopback
 * port, issuer `http://127.0.0.1:<port>`. Its state lives in memory: a restart keeps the port, the
 * issuer and the pre-registered clients, and forgets registrations, grants and opaque tokens.
 */
export class AuthorizationServer {
  private constructor(
    private child: ChildProcessWithoutNullStreams,
    private options: AuthorizationServerOptions,
    readonly port: number,
  ) {}

  get issuer(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The private signing keys in use (the first signs access tokens), for forging tokens. */
  get keys(): JWK[] {
    return this.options.keys;
  }

  /** The current child's process id (a restart changes it). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get jwksUri(): string {
    return `${this.issuer}/jwks`;
  }

  /** Starts on a free port; without `keys`, one RS256 key is generated. */
  static async start(options: StartOptions): Promise<AuthorizationServer> {
    const full = { ...options, keys: options.keys ?? [await generateSigningKey()] };
    const port = await freePort();
    return new AuthorizationServer(await spawnServer(full, port), full, port);
  }

  /** Stops and starts again on the same port and issuer with a new key set (JWKS rotation). */
  async restart({ keys }: { keys: JWK[] }): Promise<void> {
    await this.stop();
    this.options = { ...this.options, keys };
    this.child = await spawnServer(this.options, this.port);
  }

  /** SIGTERM, then SIGKILL if it lingers; resolves once the process is gone. Safe to call twice. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

async function spawnServer(
  options: AuthorizationServerOptions,
  port: number,
  timeoutMs = 30_000,
): Promise<ChildProcessWithoutNullStreams> {
  const child = spawn(process.execPath, ['-r', TYPESCRIPT_LOADER, CHILD_ENTRY], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      OAUTH_SERVER_OPTIONS: JSON.stringify(options),
      OAUTH_SERVER_PORT: String(port),
    },
  });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  let output = '';
  child.stderr.on('data', (chunk: string) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`authorization server did not start on ${port}:\n${output}`));
    }, timeoutMs);
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('authorization server listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`authorization server exited (${code}):\n${output}`));
    });
  });
  return child;
}
