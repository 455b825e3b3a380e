import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where a SQLite ledger's journals live, and how they are named: beside the
 * database, in `<database>-inbox/`, one `<owner>.<seq>.jsonl` file per owner
 * and sequence (an owner is one store of one process; it starts a new file
 * when one grows past its limit), and `<owner>.lock` while the owner lives.
 */
export interface JournalFile {
  /** File name, also its key in `ledger_journal_progress`. */
  name: string;
  owner: string;
  seq: number;
}

const JOURNAL_NAME = /^([A-Za-z0-9-]+)\.(\d+)\.jsonl$/;

export function journalDirFor(databasePath: string): string {
  return `${databasePath}-inbox`;
}

export function journalName(owner: string, seq: number): string {
  return `${owner}.${seq}.jsonl`;
}

export function lockPath(dir: string, owner: string): string {
  return join(dir, `${owner}.lock`);
}

/** The journals in `dir`, each owner's in sequence order; none when the directory is absent. */
export function listJournals(dir: string): JournalFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const files: JournalFile[] = [];
  for (const name of names) {
    const match = JOURNAL_NAME.exec(name);
    if (match) files.push({ name, owner: match[1], seq: Number(match[2]) });
  }
  return files.sort((a, b) => (a.owner === b.owner ? a.seq - b.seq : a.owner < b.owner ? -1 : 1));
}
