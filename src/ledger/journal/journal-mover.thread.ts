import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { JournalMoverLog } from './ledger-journal.mover';
import {
  JournalMoverReply,
  JournalMoverRequest,
  JournalMoverSetup,
} from './journal-mover.protocol';

interface Pending {
  resolve: (rows: number) => void;
  reject: (err: Error) => void;
}

/** After a worker fails, how long until another is started (requests fail at once meanwhile). */
const RESTART_DELAY_MS = 5_000;

/**
 * The store's side of the journal mover's worker thread. A worker that
 * fails is started again on a request at least RESTART_DELAY_MS later; the
 * rows wait in their files, and the store moves them itself meanwhile
 * (sqlite-ledger.journal.ts). The thread keeps the process alive only while
 * a request waits for its answer.
 */
export class JournalMoverThread {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure?: { at: number; error: Error };

  constructor(
    private readonly setup: JournalMoverSetup,
    private readonly log: JournalMoverLog & { error(message: Record<string, unknown>): void },
    private readonly file = workerFile(),
  ) {
    this.start();
  }

  /** Moves the owner's rows, answering nothing (the periodic move); false while no thread runs. */
  moveOwn(seq: number): boolean {
    if (!this.available()) return false;
    this.post({ kind: 'move-own', seq });
    return true;
  }

  /** Moves every journal in the directory; resolves with how many rows. */
  moveAll(seq: number): Promise<number> {
    return this.request({ kind: 'move-all', id: this.nextId++, seq });
  }

  /** Moves everything, removes the owner's files, and stops the thread. */
  async finish(seq: number): Promise<void> {
    try {
      await this.request({ kind: 'finish', id: this.nextId++, seq });
    } finally {
      await this.worker?.terminate();
      this.worker = undefined;
    }
  }

  /** Stops the thread without moving anything more (the database is no longer the one opened). */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.stopped(worker, new Error('ledger journal mover stopped'));
    await worker.terminate();
  }

  private request(message: JournalMoverRequest & { id: number }): Promise<number> {
    if (!this.available())
      return Promise.reject(this.failure?.error ?? new Error('no mover thread'));
    const answer = new Promise<number>((resolve, reject) =>
      this.pending.set(message.id, { resolve, reject }),
    );
    this.post(message);
    return answer;
  }

  private post(message: JournalMoverRequest): void {
    const worker = this.worker ?? this.start();
    if (this.pending.size > 0) worker.ref();
    worker.postMessage(message);
  }

  /** A thread runs, or may be started again. */
  private available(): boolean {
    return (
      !this.failure || this.worker !== undefined || Date.now() - this.failure.at >= RESTART_DELAY_MS
    );
  }

  private start(): Worker {
    // In stdio mode stdout carries the protocol: whatever the thread might print goes to stderr.
    const worker = new Worker(this.file, { workerData: this.setup, stdout: true });
    worker.stdout.pipe(process.stderr, { end: false });
    worker.unref();
    worker.on('message', (reply: JournalMoverReply) => this.onReply(worker, reply));
    worker.on('error', (err) => {
      this.log.error({ msg: 'ledger journal mover thread failed', error: err.message });
      this.failure = { at: Date.now(), error: err };
      this.stopped(worker, err);
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      const err = new Error(`ledger journal mover thread exited (${code})`);
      this.failure = { at: Date.now(), error: err };
      this.stopped(worker, err);
    });
    this.worker = worker;
    return worker;
  }

  private onReply(worker: Worker, reply: JournalMoverReply): void {
    if (reply.kind === 'warn') {
      this.log.warn(reply.message);
      return;
    }
    const pending = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if (this.pending.size === 0) worker.unref();
    if (reply.kind === 'done') pending?.resolve(reply.rows);
    else pending?.reject(new Error(`ledger journal move failed: ${reply.error}`));
  }

  private stopped(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const pending of this.pending.values()) pending.reject(err);
    this.pending.clear();
  }
}

/**
 * The worker's script beside this file in the build. Run from the
 * TypeScript sources (the test suite), it is the build's copy: Jest's global
 * setup builds dist/ before any test runs (test/global-setup.ts).
 */
export function workerFile(): string {
  const beside = join(__dirname, 'journal-mover.worker.js');
  if (existsSync(beside)) return beside;
  return join(__dirname, '..', '..', '..', 'dist', 'ledger', 'journal', 'journal-mover.worker.js');
}
