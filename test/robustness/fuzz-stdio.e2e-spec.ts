/**
 * Property-based fuzzing of the stdio transport: a real gateway child gets
 * lines of generated junk and near-valid JSON-RPC, many at a time, and every
 * answer is checked against the specification oracle (test/robustness/support).
 */
import fc from 'fast-check';
import { StdioGatewayProcess } from '../support/stdio-process';
import { killAllGateways, spawnTracked } from '../support/tracked-gateways';
import { frameArb, FrameWeights, hugeFrameArb, IdCounter } from './support/fuzz-frames';
import { assertFrames, EVERY_OUTCOME, fuzzUntil, report } from './support/fuzz-runner';
import { StdioFuzzer, stdoutProblems } from './support/stdio-fuzzer';

const ENV = { MCP_SERVER_LEDGER_ENABLED: 'false' };
const WEIGHTS: FrameWeights = { single: 11, batch: 5, junk: 4 };
const BOOT_MS = 90_000;

/**
 * Rounds of 5 runs of 130-170 lines until 2,500 messages went out (about 2 rounds): enough for
 * every kind of answer to come up many times, and the seed changes per run (printed).
 */
const TARGET = 2_500;
const RUNS_PER_ROUND = 5;
const MAX_ROUNDS = 8;
const MAIN_FRAMES = { minLength: 130, maxLength: 170 };
const SUBSET_RUNS = 4;
const SUBSET_FRAMES = { minLength: 100, maxLength: 140 };
/** Huge frames (up to ~3 MiB each): few, so the run stays bounded. */
const HUGE_RUNS = 3;
const HUGE_FRAMES = { minLength: 4, maxLength: 8 };

describe('stdio fuzzing', () => {
  const ids = new IdCounter();
  let legacy: StdioGatewayProcess;
  let latest: StdioGatewayProcess;
  let legacyFuzzer: StdioFuzzer;
  let legacyInitialized = false;

  beforeAll(async () => {
    // Two children, booted side by side: one starts fresh and then speaks
    // 2025-03-26 (batches allowed), the other 2025-11-25 (no batches).
    [legacy, latest] = await Promise.all([spawnTracked({ env: ENV }), spawnTracked({ env: ENV })]);
    legacyFuzzer = new StdioFuzzer(
      legacy,
      { transport: 'stdio', initialized: false, batching: true },
      ids,
    );
  }, BOOT_MS);

  afterAll(async () => {
    for (const gateway of [legacy, latest]) {
      if (gateway && gateway.child.exitCode === null && gateway.child.signalCode === null) {
        await gateway.endInput();
      }
    }
    await killAllGateways();
  }, 30_000);

  async function initializeLegacy(): Promise<void> {
    if (legacyInitialized) return;
    const init = await legacy.initialize('2025-03-26');
    expect(init).toMatchObject({ result: { protocolVersion: '2025-03-26' } });
    legacyInitialized = true;
    // The handshake's answer is not the fuzzer's.
    legacyFuzzer.resync();
  }

  it('answers every frame on a fresh session (before initialize) as the oracle says', async () => {
    await assertFrames(fc.array(frameArb('fresh', WEIGHTS), SUBSET_FRAMES), SUBSET_RUNS, (frames) =>
      legacyFuzzer.run(frames),
    );
    expect(legacyFuzzer.stats.frames).toBeGreaterThanOrEqual(SUBSET_RUNS * SUBSET_FRAMES.minLength);
    report(`stdio fresh session: ${legacyFuzzer.stats.toString()}`);
  }, 120_000);

  it('answers at least 2,500 fuzzed messages on an initialized 2025-03-26 session', async () => {
    await initializeLegacy();
    const fuzzer = new StdioFuzzer(
      legacy,
      { transport: 'stdio', initialized: true, batching: true },
      ids,
    );
    const started = Date.now();
    await fuzzUntil(
      () => fuzzer.stats.messages >= TARGET,
      fc.array(frameArb('ready', WEIGHTS), MAIN_FRAMES),
      RUNS_PER_ROUND,
      MAX_ROUNDS,
      (frames) => fuzzer.run(frames),
    );
    expect(fuzzer.stats.messages).toBeGreaterThanOrEqual(TARGET);
    expect(fuzzer.stats.missingOutcomes(EVERY_OUTCOME)).toEqual([]);
    report(`stdio 2025-03-26 session: ${fuzzer.stats.toString()} in ${Date.now() - started} ms`);
  }, 180_000);

  it('answers huge arguments, long batches and large initialize payloads as the oracle says, and stays responsive', async () => {
    await initializeLegacy();
    const fuzzer = new StdioFuzzer(
      legacy,
      { transport: 'stdio', initialized: true, batching: true },
      ids,
    );
    await assertFrames(fc.array(hugeFrameArb, HUGE_FRAMES), HUGE_RUNS, async (frames) => {
      const problems = await fuzzer.run(frames);
      // Right behind the huge frames, a ping is still answered (within waitFor's 10 s).
      const id = `after-huge-${ids.next()}`;
      expect(await legacy.request('ping', undefined, id)).toEqual({
        jsonrpc: '2.0',
        id,
        result: {},
      });
      fuzzer.resync();
      return problems;
    });
    expect(fuzzer.stats.frames).toBeGreaterThanOrEqual(HUGE_RUNS * HUGE_FRAMES.minLength);
    report(`stdio huge frames: ${fuzzer.stats.toString()}`);
  }, 120_000);

  it('answers every frame on an initialized 2025-11-25 session (batches refused whole)', async () => {
    const init = await latest.initialize('2025-11-25');
    expect(init).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
    const fuzzer = new StdioFuzzer(
      latest,
      { transport: 'stdio', initialized: true, batching: false },
      ids,
    );
    await assertFrames(fc.array(frameArb('ready', WEIGHTS), SUBSET_FRAMES), SUBSET_RUNS, (frames) =>
      fuzzer.run(frames),
    );
    expect(fuzzer.stats.frames).toBeGreaterThanOrEqual(SUBSET_RUNS * SUBSET_FRAMES.minLength);
    report(`stdio 2025-11-25 session: ${fuzzer.stats.toString()}`);
  }, 120_000);

  it('leaves both processes up, answering, with nothing but JSON-RPC on stdout', async () => {
    for (const gateway of [legacy, latest]) {
      expect(gateway.child.exitCode).toBeNull();
      expect(gateway.child.signalCode).toBeNull();
      expect(await gateway.request('ping', undefined, 'after-fuzzing')).toEqual({
        jsonrpc: '2.0',
        id: 'after-fuzzing',
        result: {},
      });
      expect(stdoutProblems(gateway.stdoutLines)).toEqual([]);
      // Every line was answered through the dispatcher; none failed on the way out.
      expect(gateway.stderr).not.toContain('stdio dispatch failed');
    }
    // EOF still shuts a fuzzed gateway down cleanly.
    const exit = await legacy.endInput();
    expect(exit.code).toBe(0);
  }, 60_000);
});
