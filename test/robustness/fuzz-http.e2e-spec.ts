/**
 * Property-based fuzzing of Streamable HTTP: the in-process gateway gets
 * POST /mcp bodies of generated junk and near-valid JSON-RPC over keep-alive
 * connections, several at a time, and every answer (status and body) is
 * checked against the specification oracle (test/robustness/support).
 */
import fc from 'fast-check';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { frameArb, FrameWeights, hugeFrameArb, IdCounter } from './support/fuzz-frames';
import { assertFrames, EVERY_OUTCOME, fuzzUntil, report } from './support/fuzz-runner';
import { deleteSession, openSession, postMcp } from '../support/mcp-fetch';
import { HttpFuzzer } from './support/http-fuzzer';

/** More batches than over stdio: every POST costs a round trip, a batch carries many messages. */
const WEIGHTS: FrameWeights = { single: 10, batch: 7, junk: 4 };
/**
 * Rounds of 5 runs of 100-140 POSTs until 2,500 messages went out (about 2 rounds): enough for
 * every kind of answer to come up many times, and the seed changes per run (printed).
 */
const TARGET_MESSAGES = 2_500;
const RUNS_PER_ROUND = 5;
const MAX_ROUNDS = 8;
const MAIN_FRAMES = { minLength: 100, maxLength: 140 };
const SUBSET_RUNS = 4;
const SUBSET_FRAMES = { minLength: 80, maxLength: 120 };
/** Huge frames (up to ~3 MiB each), two at a time: few, so the run stays bounded. */
const HUGE_RUNS = 3;
const HUGE_FRAMES = { minLength: 4, maxLength: 8 };

describe('Streamable HTTP fuzzing', () => {
  const ids = new IdCounter();
  let gateway: HttpGatewayHandle;
  let legacySession: string;
  let latestSession: string;

  beforeAll(async () => {
    gateway = await startHttpGateway({ config: { ledger: { enabled: false } } });
    legacySession = await openSession(gateway.baseUrl, '2025-03-26');
    latestSession = await openSession(gateway.baseUrl, '2025-11-25');
  }, 60_000);

  afterAll(async () => {
    if (!gateway) return;
    for (const session of [legacySession, latestSession]) {
      if (session) await deleteSession(gateway.baseUrl, session);
    }
    await gateway.close();
  });

  it('answers at least 2,500 fuzzed messages on an initialized 2025-03-26 session', async () => {
    const fuzzer = new HttpFuzzer(
      { baseUrl: gateway.baseUrl, sessionId: legacySession, protocolVersion: '2025-03-26' },
      { transport: 'http', initialized: true, batching: true },
      ids,
    );
    const started = Date.now();
    await fuzzUntil(
      () => fuzzer.stats.messages >= TARGET_MESSAGES,
      fc.array(frameArb('ready', WEIGHTS), MAIN_FRAMES),
      RUNS_PER_ROUND,
      MAX_ROUNDS,
      (frames) => fuzzer.run(frames),
    );
    expect(fuzzer.stats.messages).toBeGreaterThanOrEqual(TARGET_MESSAGES);
    expect(fuzzer.stats.missingOutcomes(EVERY_OUTCOME)).toEqual([]);
    report(
      `HTTP 2025-03-26 session: ${fuzzer.stats.toString()}; ${fuzzer.sessionsOpened} sessions opened by initialize (deleted) in ${Date.now() - started} ms`,
    );
  }, 180_000);

  it('answers huge arguments, long batches and large initialize payloads as the oracle says', async () => {
    const fuzzer = new HttpFuzzer(
      { baseUrl: gateway.baseUrl, sessionId: legacySession, protocolVersion: '2025-03-26' },
      { transport: 'http', initialized: true, batching: true },
      ids,
      2,
    );
    await assertFrames(fc.array(hugeFrameArb, HUGE_FRAMES), HUGE_RUNS, async (frames) => {
      const problems = await fuzzer.run(frames);
      const health = await fetch(`${gateway.baseUrl}/health`);
      await health.arrayBuffer();
      if (health.status !== 200) problems.push(`/health answered ${health.status} after the run`);
      return problems;
    });
    expect(fuzzer.stats.frames).toBeGreaterThanOrEqual(HUGE_RUNS * HUGE_FRAMES.minLength);
    report(`HTTP huge frames: ${fuzzer.stats.toString()}`);
  }, 120_000);

  it('answers every POST on an initialized 2025-11-25 session (batches refused whole)', async () => {
    const fuzzer = new HttpFuzzer(
      { baseUrl: gateway.baseUrl, sessionId: latestSession, protocolVersion: '2025-11-25' },
      { transport: 'http', initialized: true, batching: false },
      ids,
    );
    await assertFrames(fc.array(frameArb('ready', WEIGHTS), SUBSET_FRAMES), SUBSET_RUNS, (frames) =>
      fuzzer.run(frames),
    );
    expect(fuzzer.stats.frames).toBeGreaterThanOrEqual(SUBSET_RUNS * SUBSET_FRAMES.minLength);
    report(`HTTP 2025-11-25 session: ${fuzzer.stats.toString()}`);
  }, 120_000);

  it('answers every POST without a session: 400, except initialize (which opens one)', async () => {
    const fuzzer = new HttpFuzzer(
      { baseUrl: gateway.baseUrl },
      { transport: 'http', initialized: false, batching: true },
      ids,
    );
    await assertFrames(fc.array(frameArb('fresh', WEIGHTS), SUBSET_FRAMES), SUBSET_RUNS, (frames) =>
      fuzzer.run(frames),
    );
    expect(fuzzer.stats.frames).toBeGreaterThanOrEqual(SUBSET_RUNS * SUBSET_FRAMES.minLength);
    report(`HTTP without session: ${fuzzer.stats.toString()}`);
  }, 120_000);

  it('is still healthy afterwards and the fuzzed sessions still work', async () => {
    const health = await fetch(`${gateway.baseUrl}/health`);
    await health.arrayBuffer();
    expect(health.status).toBe(200);
    for (const [sessionId, version] of [
      [legacySession, '2025-03-26'],
      [latestSession, '2025-11-25'],
    ]) {
      const ping = await postMcp(
        gateway.baseUrl,
        Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'ping' })),
        { 'mcp-session-id': sessionId, 'mcp-protocol-version': version },
      );
      expect(ping.status).toBe(200);
      expect(JSON.parse(ping.text)).toEqual({ jsonrpc: '2.0', id: 'after', result: {} });
    }
  });
});
