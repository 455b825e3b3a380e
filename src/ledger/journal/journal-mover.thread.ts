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

/**
 * The store's side of the journal mover's worker thread. A worker that
 * fails is started again on the next request (the rows wait in their
 * files). The thread keeps the process alive only while a request waits
 * for its answer.
 */
export class JournalMoverThread {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly setup: JournalMoverSetup,
    private readonly log: JournalMoverLog & { error(message: Record<string, unknown>): void },
  ) {
    this.start();
  }

  /** Moves the owner's rows, answering nothing (the periodic move). */
  moveOwn(seq: number): void {
    this.post({ kind: 'move-own', seq });
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

  private request(message: JournalMoverRequest & { id: number }): Promise<number> {
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

  private start(): Worker {
    const worker = new Worker(workerFile(), { workerData: this.setup });
    worker.unref();
    worker.on('message', (reply: JournalMoverReply) => this.onReply(worker, reply));
    worker.on('error', (err) => {
      this.log.error({ msg: 'ledger journal mover failed', error: err.message });
      this.stopped(worker, err);
    });
    worker.on('exit', (code) => this.stopped(worker, new Error(`mover thread exited (${code})`)));
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
function workerFile(): string {
  const beside = join(__dirname, 'journal-mover.worker.js');
  if (existsSync(beside)) return beside;
  return join(__dirname, '..', '..', '..', 'dist', 'ledger', 'journal', 'journal-mover.worker.js');
}
