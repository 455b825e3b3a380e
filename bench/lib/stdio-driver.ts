import { ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';

interface Pending {
  resolve: (message: StdioReply) => void;
  reject: (err: Error) => void;
}

export interface StdioReply {
  id: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/**
 * A raw line-based MCP client: JSON lines to the child's stdin, responses
 * read from its stdout and matched to requests by id. The same driver runs
 * against every stdio server.
 */
export class StdioDriver {
  private nextId = 1;
  private buffered = '';
  private readonly pending = new Map<number, Pending>();
  private readonly stdin: Writable;

  constructor(child: ChildProcess) {
    if (!child.stdin || !child.stdout) throw new Error('stdio driver needs piped stdin/stdout');
    this.stdin = child.stdin;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.onData(chunk));
    child.once('exit', (code) => this.failAll(new Error(`server exited (${code})`)));
  }

  request(method: string, params?: Record<string, unknown>): Promise<StdioReply> {
    const id = this.nextId++;
    const reply = new Promise<StdioReply>((resolve, reject) =>
      this.pending.set(id, { resolve, reject }),
    );
    this.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return reply;
  }

  notify(method: string): void {
    this.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }

  private onData(chunk: string): void {
    this.buffered += chunk;
    let newline = this.buffered.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      this.onLine(line);
      newline = this.buffered.indexOf('\n');
    }
  }

  private onLine(line: string): void {
    if (line.trim() === '') return;
    const message = JSON.parse(line) as Partial<StdioReply> & { method?: string };
    // Server notifications and requests (no numeric id of ours) are not answers.
    if (typeof message.id !== 'number' || message.method !== undefined) return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    pending.resolve(message as StdioReply);
  }

  private failAll(err: Error): void {
    for (const pending of this.pending.values()) pending.reject(err);
    this.pending.clear();
  }
}
