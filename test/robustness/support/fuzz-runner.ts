import fc from 'fast-check';
import { randomInt } from 'node:crypto';
import { FrameSpec, messageCount } from './fuzz-frames';
import { Reply } from './jsonrpc-oracle';

/** Every kind of answer an initialized session gives to fuzzed frames: success and each error code. */
export const EVERY_OUTCOME = ['ok', '-32600', '-32601', '-32602', '-32700'] as const;

/** Counts what a fuzzer sent and got back, for the assertions on volume and for the report. */
export class FuzzStats {
  frames = 0;
  messages = 0;
  answers = 0;
  silent = 0;
  /** Expected answers by outcome ('ok' or the error code; alternatives joined with |). */
  readonly outcomes = new Map<string, number>();

  add(frames: FrameSpec[], answers: number, silent: number): void {
    this.frames += frames.length;
    this.messages += frames.reduce((sum, frame) => sum + messageCount(frame), 0);
    this.answers += answers;
    this.silent += silent;
  }

  count(replies: Reply[]): void {
    for (const reply of replies) {
      const answers =
        reply.kind === 'none' ? [] : reply.kind === 'single' ? [reply.answer] : reply.answers;
      for (const answer of answers) {
        const key = answer.outcomes.join('|');
        this.outcomes.set(key, (this.outcomes.get(key) ?? 0) + 1);
      }
    }
  }

  /**
   * The kinds of answer the oracle expected that never came up. A fuzzing run is big enough when
   * this is empty: every outcome (success, each error code) was exercised at least once.
   */
  missingOutcomes(kinds: readonly string[]): string[] {
    const seen = [...this.outcomes.keys()].flatMap((key) => key.split('|'));
    return kinds.filter((kind) => !seen.includes(kind));
  }

  toString(): string {
    const outcomes = [...this.outcomes.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([key, n]) => `${key}: ${n}`)
      .join(', ');
    return `${this.frames} frames, ${this.messages} messages, ${this.answers} answers, ${this.silent} frames without answer; expected outcomes {${outcomes}}`;
  }
}

/**
 * This run's seed: new on every run, so that runs together cover more than any one of them, and
 * printed, so that `OWLCLAW_FUZZ_SEED=<seed>` replays a whole file's frames (each property gets
 * the next seed after it, in the file's order).
 */
const RUN_SEED = fuzzSeed(process.env.OWLCLAW_FUZZ_SEED);
let propertiesRun = 0;

function fuzzSeed(fromEnv: string | undefined): number {
  if (fromEnv === undefined || fromEnv === '') return randomInt(2 ** 31);
  const seed = Number(fromEnv);
  if (!Number.isSafeInteger(seed)) {
    throw new Error(`OWLCLAW_FUZZ_SEED must be a whole number, not ${fromEnv}`);
  }
  return seed;
}

/** The seed for the next property of this file, reported as a replay command. */
function nextSeed(): number {
  if (propertiesRun === 0) {
    report(`fuzzing with seed ${RUN_SEED} (replay: OWLCLAW_FUZZ_SEED=${RUN_SEED})`);
  }
  return (RUN_SEED + propertiesRun++) | 0;
}

/**
 * Runs an async property over generated frame lists. A failure reports the
 * seed, the replay path and the oracle's own diagnosis (the frames involved),
 * not fast-check's dump of the whole list, and stops at once: shrinking
 * against a live gateway would only repeat the same answers more slowly.
 */
export async function assertFrames(
  frames: fc.Arbitrary<FrameSpec[]>,
  numRuns: number,
  check: (frames: FrameSpec[]) => Promise<string[]>,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(frames, async (list) => {
      const problems = await check(list);
      if (problems.length > 0) {
        throw new Error(
          `${problems.length} problem(s):\n${problems.slice(0, 12).join('\n')}${problems.length > 12 ? '\n...' : ''}`,
        );
      }
    }),
    {
      numRuns,
      seed: nextSeed(),
      endOnFailure: true,
      reporter: (details) => {
        if (!details.failed) return;
        const cause =
          details.errorInstance instanceof Error
            ? details.errorInstance.message
            : String(details.errorInstance);
        throw new Error(
          `fuzzing failed after ${details.numRuns} run(s) (seed ${details.seed}, path "${details.counterexamplePath ?? ''}"; the file replays with OWLCLAW_FUZZ_SEED=${RUN_SEED}):\n${cause}`,
        );
      },
    },
  );
}

/** Runs `work` over `items` with at most `limit` at a time. */
export async function pooled<T>(
  items: T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** One line of numbers for the test log (console.* is linted out of the code base). */
export function report(line: string): void {
  process.stdout.write(`[robustness] ${line}\n`);
}

/**
 * Rounds of `assertFrames` until `enough()` holds: the volume is guaranteed
 * whatever the random sizes, and bounded by `maxRounds`.
 */
export async function fuzzUntil(
  enough: () => boolean,
  frames: fc.Arbitrary<FrameSpec[]>,
  runsPerRound: number,
  maxRounds: number,
  check: (frames: FrameSpec[]) => Promise<string[]>,
): Promise<number> {
  let rounds = 0;
  while (!enough() && rounds < maxRounds) {
    rounds++;
    await assertFrames(frames, runsPerRound, check);
  }
  return rounds;
}
