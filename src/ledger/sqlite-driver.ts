import type BetterSqlite3 from 'better-sqlite3';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/**
 * better-sqlite3 12 (compiled at install) is the binding that runs on Node 20, which 13 does not
 * support; on Node 22 and later the gateway loads 13 (N-API prebuilds, installed as the optional
 * `better-sqlite3-napi`), because 12 aborts the process on Node 24.19+ when V8 collects a statement.
 */
const BINDING_PACKAGE = NODE_MAJOR >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';

function loadBinding(): typeof BetterSqlite3 {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(BINDING_PACKAGE) as typeof BetterSqlite3;
  } catch (err) {
    throw new Error(
      `the SQLite ledger needs the package ${BINDING_PACKAGE} on Node ${process.versions.node} ` +
        '(install dependencies without --omit=optional)',
      { cause: err },
    );
  }
}

/** The SQLite database class of the binding this Node runs. */
export const SqliteDatabase: typeof BetterSqlite3 = loadBinding();
export type SqliteDatabase = BetterSqlite3.Database;
