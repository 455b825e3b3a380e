import { HealthIndicatorService } from '@nestjs/terminus';
import { GatewayConfig } from '../config/gateway-config';
import { LedgerStore } from './ledger-store';
import { LEDGER_FAILURE_HOLD_MS, LedgerHealthIndicator } from './ledger.health';
import { LedgerCommitFailure, LedgerWriter } from './ledger.writer';

describe('LedgerHealthIndicator', () => {
  const store = { ping: () => Promise.resolve() } as unknown as LedgerStore;
  const config = { ledger: { driver: 'sqlite' } } as GatewayConfig;
  let failure: LedgerCommitFailure | undefined;
  const writer = {
    get failure() {
      return failure;
    },
  } as unknown as LedgerWriter;
  const health = new LedgerHealthIndicator(new HealthIndicatorService(), store, writer, config);

  it('is up while the store answers and no commit failed', async () => {
    failure = undefined;
    expect(await health.check()).toMatchObject({ ledger: { status: 'up' } });
  });

  it('is down, with the reason, while the last commit failed and none succeeded since (pings still answer)', async () => {
    failure = { reason: 'The ledger cannot record calls (a journal write failed)', at: Date.now() };
    expect(await health.check()).toMatchObject({
      ledger: {
        status: 'down',
        driver: 'sqlite',
        reason: expect.stringMatching(
          /last commit failed .* none has succeeded since: .*journal write failed/,
        ),
      },
    });
  });

  it('lets calls in again once the hold has passed without a commit tried', async () => {
    failure = { reason: 'a journal write failed', at: Date.now() - LEDGER_FAILURE_HOLD_MS - 1 };
    expect(await health.check()).toMatchObject({ ledger: { status: 'up' } });
  });
});
