/** Most rows one group commit writes (one multi-row INSERT). */
export const LEDGER_MAX_BATCH_ROWS = 500;

/** Most rows one prune transaction deletes (SQLite: about 100 ms holding the write lock). */
export const LEDGER_PRUNE_CHUNK_ROWS = 5_000;

/** How often retention pruning runs after the one at boot. */
export const LEDGER_PRUNE_INTERVAL_MS = 24 * 60 * 60 * 1000;

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * SQLite: how long committed rows may wait in their journal (or in
 * `ledger_inbox`) before a move into `ledger` starts (reads move them at
 * once). Longer makes larger, cheaper moves.
 */
export const LEDGER_MOVE_DELAY_MS = 20;

/** SQLite in memory: most rows one move transaction takes from the inbox (a few ms); the rest follow. */
export const LEDGER_INBOX_MOVE_ROWS = 2_000;

/** Longest error message a row keeps (characters, after redaction): enough for a diagnosis, not a dump. */
export const LEDGER_ERROR_MESSAGE_MAX = 1_024;
