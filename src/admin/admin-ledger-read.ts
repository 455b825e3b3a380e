import { HttpException, Logger, ServiceUnavailableException } from '@nestjs/common';
import { LEDGER_RETRY_AFTER_SECONDS } from '../ledger/ledger-unavailable';

const logger = new Logger('AdminLedgerRead');

/**
 * Runs an admin read of the ledger. A ledger that cannot be read or written
 * (a full disk, a lost database) is answered 503 naming the ledger, so an
 * operator sees which dependency failed; the cause goes to the log only.
 */
export async function readLedger<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof HttpException) throw err;
    logger.error({
      msg: 'admin ledger read failed',
      read: what,
      error: err instanceof Error ? err.message : String(err),
    });
    throw new ServiceUnavailableException({
      statusCode: 503,
      error: 'Service Unavailable',
      message: `the ledger cannot be read (${what}); retry shortly`,
      reason: 'ledger_unavailable',
      retry_after: LEDGER_RETRY_AFTER_SECONDS,
    });
  }
}
