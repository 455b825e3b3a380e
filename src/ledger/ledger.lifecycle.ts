import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { LEDGER_STORE, LedgerStore } from './ledger-store';
import { LedgerRetention } from './ledger.retention';
import { LedgerWriter } from './ledger.writer';

/**
 * Shuts the ledger down in order, after the transports have stopped taking
 * calls: no more pruning, every queued row committed, then the connection closed.
 */
@Injectable()
export class LedgerLifecycle implements OnApplicationShutdown {
  constructor(
    private readonly retention: LedgerRetention,
    private readonly writer: LedgerWriter,
    @Inject(LEDGER_STORE) private readonly store: LedgerStore,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.retention.stop();
    await this.writer.drain();
    await this.store.close();
  }
}
