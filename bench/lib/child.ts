import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { childEnv } from './child-env';
import { REPO_ROOT } from './paths';

/** USER_HZ: /proc reports CPU times in these ticks (100 on Linux for every common architecture). */
const CLOCK_TICKS_PER_SECOND = 100;

export interface ServerSpec {
  /** Short label for logs and errors. */
  name: string;
  /** Node flags, given before the script: the bench's one list (plus e.g. --cpu-prof). */
  nodeFlags: readonly string[];
  /** The script, then its arguments. */
  args: string[];
  /** Variables on top of the bench's environment as childEnv filters it. */
  env?: Record<string, string>;
  /** The server's stderr goes to this file (not a pipe: no reader can slow the server down). */
  logFile: string;
  /** Pipe stdin/stdout (stdio servers) instead of ignoring them. */
  stdio?: boolean;
}

const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;
const POLL_MS = 50;

/**
 * One server under test, in its own `node` process (so /proc/<pid> describes
 * the server alone). HTTP servers announce themselves with a JSON line on
 * stderr containing `"msg":"listening"` and `"port":N`, as the gateway does.
 */
export class ChildServer {
  private maxRssKb = 0;

  private constructor(
    readonly name: string,
    readonly process: ChildProcess,
    readonly logFile: string,
  ) {}

  get pid(): number {
    if (this.process.pid === undefined) throw new Error(`${this.name}: not started`);
    return this.process.pid;
  }

  /** Spawns the server; for HTTP servers, resolves once it listens, with its port. */
  static async start(spec: ServerSpec): Promise<{ server: ChildServer; port: number }> {
    const log = openSync(spec.logFile, 'w');
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, [...spec.nodeFlags, ...spec.args], {
        cwd: REPO_ROOT,
        env: childEnv(spec.env),
        stdio: [spec.stdio ? 'pipe' : 'ignore', spec.stdio ? 'pipe' : 'ignore', log],
      });
    } finally {
      closeSync(log);
    }
    const server = new ChildServer(spec.name, child, spec.logFile);
    if (spec.stdio) return { server, port: 0 };
    try {
      return { server, port: await server.waitForListening() };
    } catch (err) {
      child.kill('SIGKILL');
      throw err;
    }
  }

  /** The last lines the server wrote to stderr (for failure messages). */
  tail(): string {
    return readFileSync(this.logFile, 'utf8').split('\n').slice(-15).join('\n');
  }

  /** Current resident set size in MiB; also kept as the maximum seen. */
  sampleRss(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? NaN);
    if (Number.isFinite(kb)) this.maxRssKb = Math.max(this.maxRssKb, kb);
    return kb / 1024;
  }

  /** CPU time the process has used so far, all its threads, user and system (ms). */
  cpuMs(): number {
    const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces): utime and stime are 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  }

  get maxRssMb(): number {
    return this.maxRssKb / 1024;
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = once(this.process, 'exit');
    this.process.kill('SIGTERM');
    const timer = setTimeout(() => this.process.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private get exited(): boolean {
    return this.process.exitCode !== null || this.process.signalCode !== null;
  }

  /** Polls the log file for the listening line. */
  private async waitForListening(): Promise<number> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const port = findListeningPort(readFileSync(this.logFile, 'utf8'));
      if (port !== undefined) return port;
      if (this.exited) {
        throw new Error(
          `${this.name}: exited (${this.process.exitCode}) before listening:\n${this.tail()}`,
        );
      }
      await delay(POLL_MS);
    }
    throw new Error(`${this.name}: not listening after ${START_TIMEOUT_MS} ms:\n${this.tail()}`);
  }
}

function findListeningPort(log: string): number | undefined {
  for (const line of log.split('\n')) {
    if (!line.includes('"listening"')) continue;
    try {
      const parsed = JSON.parse(line) as { msg?: unknown; port?: unknown };
      if (parsed.msg === 'listening' && typeof parsed.port === 'number') return parsed.port;
    } catch {
      // A partly written line: read again on the next poll.
    }
  }
  return undefined;
}
