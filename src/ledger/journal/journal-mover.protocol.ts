/** What the journal mover's worker thread is told, and answers (journal-mover.thread.ts). */

export interface JournalMoverSetup {
  databasePath: string;
  dir: string;
  owner: string;
  chunkBytes: number;
}

/** `seq`: the file the owner appends to now; files before it are complete. */
export type JournalMoverRequest =
  | { kind: 'move-own'; seq: number }
  | { kind: 'move-all'; id: number; seq: number }
  | { kind: 'finish'; id: number; seq: number };

export type JournalMoverReply =
  | { kind: 'done'; id: number; rows: number }
  | { kind: 'failed'; id: number; error: string }
  | { kind: 'warn'; message: Record<string, unknown> };
