import { Injectable } from '@nestjs/common';

/**
 * Tells batching steps (the ledger's group commit) whether the call at hand
 * is the only one that could share its batch, so that it need not wait for
 * the end of the event-loop turn to gather company.
 *
 * Only a transport can know. stdio dispatches every line of a read before
 * any of them records, so "no other line in flight" is exact there. HTTP
 * requests arrive in separate callbacks of one poll phase: each runs to its
 * ledger row before the next is read, so only the end of the turn gathers
 * them, and HTTP sets no probe (never alone).
 */
@Injectable()
export class SoleCallProbe {
  private probe?: () => boolean;

  /** Set by the transport that serves this process. */
  use(probe: () => boolean): void {
    this.probe = probe;
  }

  get alone(): boolean {
    return this.probe?.() ?? false;
  }
}
