import { parentPort, workerData } from 'node:worker_threads';
import { OpenedFile } from '../opened-file';
import { openSqlite } from '../sqlite-database';
import {
  JournalMoverReply,
  JournalMoverRequest,
  JournalMoverSetup,
} from './journal-mover.protocol';
import { JournalSweep } from './journal-sweep';

/**
 * The journal mover's thread: its own connection to the database, moving
 * journal lines into `ledger` as the store asks (journal-mover.thread.ts).
 * Inserting a row into `ledger`, its indexes and its usage summary is most
 * of what a call costs the ledger; here it costs the event loop nothing.
 */
const setup = workerData as JournalMoverSetup;
const port = parentPort;
if (!port) throw new Error('journal-mover.worker runs as a worker thread');

/** A failing periodic move is reported at most this often (the store asks again after every append). */
const FAILURE_REPORT_INTERVAL_MS = 10_000;

const reply = (message: JournalMoverReply) => port.postMessage(message);
let lastFailureReport = 0;
let unreportedFailures = 0;

function reportMoveFailure(error: string): void {
  unreportedFailures += 1;
  const now = Date.now();
  if (now - lastFailureReport < FAILURE_REPORT_INTERVAL_MS) return;
  reply({
    kind: 'warn',
    message: { msg: 'ledger move failed', error, failures: unreportedFailures },
  });
  lastFailureReport = now;
  unreportedFailures = 0;
}

const db = openSqlite(setup.databasePath);
const sweep = new JournalSweep(
  db,
  setup.dir,
  setup.owner,
  { warn: (message) => reply({ kind: 'warn', message }) },
  setup.chunkBytes,
  OpenedFile.byPath(setup.databasePath),
);

port.on('message', (request: JournalMoverRequest) => {
  try {
    if (request.kind === 'move-own') {
      sweep.moveOwn(request.seq);
      return;
    }
    const rows =
      request.kind === 'move-all' ? sweep.moveAll(request.seq) : sweep.finish(request.seq);
    reply({ kind: 'done', id: request.id, rows });
    if (request.kind === 'finish') db.close();
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    // Nothing is lost: the rows stay in their journal files for the next move.
    if (request.kind === 'move-own') reportMoveFailure(error);
    else reply({ kind: 'failed', id: request.id, error });
  }
});
