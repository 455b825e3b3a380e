/** Most rows one group commit writes (one multi-row INSERT). */
export const LEDGER_MAX_BATCH_ROWS = 500;

/** How often retention pruning runs after the one at boot. */
export const LEDGER_PRUNE_INTERVAL_MS = 24 * 60 * 60 * 1000;

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Readiness fails when the ledger does not answer within this. */
export const LEDGER_PING_TIMEOUT_MS = 2_000;
