import { Logger } from '@nestjs/common';
import { readdirSync } from 'node:fs';
import { ChildSlots } from '../../src/upstreams/child-slots';
import { UpstreamConnection } from '../../src/upstreams/upstream.connection';
import { crashUpstream, markedCrashUpstreamCopy } from '../support/crash-upstream-record';
import { eventually, liveProcessesWith, processTable } from '../support/process-table';

/**
 * Connect / crash / restart cycles leave no process, file descriptor or
 * listener behind. The gateway side is the real UpstreamConnection with the
 * SDK client; the upstream is the plain-Node crash fixture
 * (test/fixtures/upstreams/crash-upstream.mjs), whose start-up is a bare Node
 * start. The footprint must come back to the baseline exactly, so a leak of
 * one item in any cycle fails: 100 cycles prove that, more only repeat it.
 * OWLCLAW_CHILD_CYCLES=N runs N (e.g. 1000 for a soak by hand). Lanes run
 * side by side so start-ups overlap.
 */
const CYCLES = Number(process.env.OWLCLAW_CHILD_CYCLES ?? 100);
if (!Number.isInteger(CYCLES) || CYCLES < 1) {
  throw new Error(`OWLCLAW_CHILD_CYCLES must be a whole number of at least 1, not ${CYCLES}`);
}
const LANES = 4;

interface Footprint {
  processes: number;
  fds: number;
  listeners: number;
  handles: Record<string, number>;
}

function footprint(): Footprint {
  const handles: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    // Timers come and go with the test runner itself; what a child leaks is a pipe or a process.
    if (kind === 'Timeout' || kind === 'Immediate') continue;
    handles[kind] = (handles[kind] ?? 0) + 1;
  }
  return {
    processes: processTable().filter((row) => row.ppid === process.pid && row.state !== 'Z').length,
    fds: readdirSync('/proc/self/fd').length,
    listeners: process.eventNames().reduce((sum, name) => sum + process.listenerCount(name), 0),
    handles,
  };
}

describe(`${CYCLES} connect / crash / restart cycles`, () => {
  // Every crash logs a warning by design; a thousand of them would only fill the test log.
  beforeAll(() => {
    Logger.overrideLogger(['error']);
  });

  it(
    'leave no process, file descriptor or listener behind',
    async () => {
      const entry = markedCrashUpstreamCopy();
      const record = crashUpstream('cycles', entry);
      // Warm-up: loads what loads once (SDK modules, loggers) before the baseline is taken.
      const warm = new UpstreamConnection(record);
      await warm.callTool('echo', {});
      await warm.close();
      const before = footprint();

      const children = new ChildSlots(LANES);
      const restart = { baseMs: 1, maxMs: 5, maxFailures: 1_000_000, windowMs: 60_000 };
      const lanes = Array.from(
        { length: LANES },
        () => new UpstreamConnection(record, { children, restart }),
      );
      const pids = new Set<number>();
      let crashes = 0;
      await Promise.all(
        lanes.map(async (connection, lane) => {
          await connection.connect();
          for (let cycle = lane; cycle < CYCLES; cycle += LANES) {
            // The restart after each crash is the supervisor's, not this loop's.
            expect(await eventually(() => connection.connected, 20_000)).toBe(true);
            pids.add(connection.pid!);
            await connection.callTool('crash', {}).then(
              () => {
                throw new Error('crash returned');
              },
              () => crashes++,
            );
          }
          await eventually(() => connection.connected, 20_000);
          await connection.close();
        }),
      );
      expect(crashes).toBe(CYCLES);
      expect(pids.size).toBe(CYCLES);
      expect(lanes.every((connection) => connection.status.restarts >= 1)).toBe(true);
      expect(children.inUse).toBe(0);

      expect(await eventually(() => liveProcessesWith(entry).length === 0)).toBe(true);
      // Closed pipes are released on the next turns of the event loop. Fewer than
      // before is fine: other test files' children may end meanwhile.
      const noMore = (now: Footprint): boolean =>
        now.fds <= before.fds &&
        now.processes <= before.processes &&
        now.listeners <= before.listeners &&
        Object.entries(now.handles).every(([kind, count]) => count <= (before.handles[kind] ?? 0));
      let after = footprint();
      await eventually(() => noMore((after = footprint())));
      expect({ after, before, leaked: !noMore(after) }).toMatchObject({ leaked: false });
    },
    Math.max(60_000, CYCLES * 500),
  );
});
