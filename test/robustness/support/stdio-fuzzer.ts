import { StdioGatewayProcess } from '../../support/stdio-process';
import { asLine, FrameSpec, IdCounter, materialize } from './fuzz-frames';
import {
  Answer,
  batchMismatch,
  envelopeProblems,
  expectStdio,
  Json,
  mismatch,
  preview,
  Reply,
  SessionState,
} from './jsonrpc-oracle';
import { FuzzStats } from './fuzz-runner';

const NEWLINE = Buffer.from('\n');
const ANSWER_TIMEOUT_MS = 45_000;

interface Expected {
  index: number;
  reply: Exclude<Reply, { kind: 'none' }>;
  used: boolean;
}

function idKey(id: unknown): string {
  return typeof id === 'number' ? `n:${id}` : `s:${String(id)}`;
}

/**
 * Drives one stdio gateway child: writes a whole list of frames as lines in
 * one go (plus a barrier ping), waits for as many answer lines as the oracle
 * expects, then matches answers to frames by id (answers come in any order:
 * the transport dispatches lines concurrently).
 */
export class StdioFuzzer {
  readonly stats = new FuzzStats();
  private cursor: number;
  private barriers = 0;

  constructor(
    readonly gateway: StdioGatewayProcess,
    readonly session: SessionState,
    readonly ids: IdCounter,
  ) {
    this.cursor = gateway.stdoutLines.length;
  }

  /** Skips stdout lines produced outside the fuzzer (a handshake). */
  resync(): void {
    this.cursor = this.gateway.stdoutLines.length;
  }

  async run(frames: FrameSpec[]): Promise<string[]> {
    const problems: string[] = [];
    const start = this.gateway.stdoutLines.length;
    if (start !== this.cursor) {
      problems.push(
        `unexpected stdout lines before this run: ${this.gateway.stdoutLines
          .slice(this.cursor, start)
          .map((l) => preview(l, 200))
          .join(' | ')}`,
      );
    }
    const lines = frames.map((frame) => asLine(materialize(frame, this.ids)));
    const replies = lines.map((line) => expectStdio(line, this.session));
    const expected: Expected[] = [];
    replies.forEach((reply, index) => {
      if (reply.kind !== 'none') expected.push({ index, reply, used: false });
    });
    // Negative ids below one million are never generated: the barrier is unique.
    const barrierId = -++this.barriers;
    const barrierLine = JSON.stringify({ jsonrpc: '2.0', id: barrierId, result: {} });
    const payload = Buffer.concat([
      ...lines.flatMap((line) => [line, NEWLINE]),
      Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: barrierId, method: 'ping' })}\n`),
    ]);
    this.gateway.child.stdin.write(payload);

    const done = () => {
      const got = this.gateway.stdoutLines.length - start;
      return (
        got >= expected.length + 1 && this.gateway.stdoutLines.lastIndexOf(barrierLine) >= start
      );
    };
    const deadline = Date.now() + ANSWER_TIMEOUT_MS;
    while (!done() && Date.now() < deadline && this.gateway.child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Answers nobody expects would arrive right behind the expected ones.
    await new Promise((resolve) => setTimeout(resolve, 25));
    const got = this.gateway.stdoutLines.slice(start);
    this.cursor = start + got.length;
    if (this.gateway.child.exitCode !== null || this.gateway.child.signalCode !== null) {
      problems.push(
        `the gateway exited (${this.gateway.child.exitCode ?? this.gateway.child.signalCode}); stderr: ${this.gateway.stderr.slice(-1500)}`,
      );
    }
    const answers = got.filter((line) => line !== barrierLine);
    if (answers.length === got.length) problems.push('the barrier ping was not answered');
    problems.push(...this.match(answers, expected, lines));
    this.stats.add(frames, expected.length, frames.length - expected.length);
    this.stats.count(replies);
    return problems;
  }

  private match(answerLines: string[], expected: Expected[], lines: Buffer[]): string[] {
    const problems: string[] = [];
    const describe = (e: Expected) =>
      `frame #${e.index} ${preview(lines[e.index].toString('utf8'), 240)} expects ${preview(e.reply)}`;
    const byId = new Map<string, Expected>();
    const nullSingles: Expected[] = [];
    const nullBatches: Expected[] = [];
    for (const e of expected) {
      if (e.reply.kind === 'single') {
        if (e.reply.answer.id === null) nullSingles.push(e);
        else byId.set(idKey(e.reply.answer.id), e);
      } else {
        const ids = e.reply.answers.filter((a) => a.id !== null);
        if (ids.length === 0) nullBatches.push(e);
        for (const answer of ids) byId.set(idKey(answer.id), e);
      }
    }
    for (const line of answerLines) {
      let body: unknown;
      try {
        body = JSON.parse(line);
      } catch {
        problems.push(`stdout line is not JSON: ${preview(line)}`);
        continue;
      }
      if (Array.isArray(body)) {
        const withId = body.find(
          (r): r is Json => typeof r === 'object' && r !== null && (r as Json).id != null,
        );
        const candidates = withId
          ? [byId.get(idKey(withId.id))].filter((e): e is Expected => e !== undefined)
          : nullBatches;
        const target = candidates.find(
          (e) =>
            !e.used &&
            e.reply.kind === 'batch' &&
            batchMismatch(body, e.reply.answers).length === 0,
        );
        if (target) {
          target.used = true;
          continue;
        }
        const near = candidates.find((e) => !e.used && e.reply.kind === 'batch');
        problems.push(
          near
            ? `batch answer ${preview(body)} does not fit ${describe(near)}: ${batchMismatch(body, (near.reply as { answers: Answer[] }).answers).join('; ')}`
            : `unexpected batch answer ${preview(body)}`,
        );
        if (near) near.used = true;
        continue;
      }
      const envelope = envelopeProblems(body);
      if (envelope.length > 0) {
        problems.push(`invalid response ${preview(line)}: ${envelope.join('; ')}`);
        continue;
      }
      const response = body as Json;
      if (response.id !== null) {
        const target = byId.get(idKey(response.id));
        if (!target || target.used || target.reply.kind !== 'single') {
          problems.push(`unexpected answer ${preview(line)}`);
          continue;
        }
        target.used = true;
        const why = mismatch(response, target.reply.answer);
        if (why) problems.push(`${why}: ${preview(line)} for ${describe(target)}`);
        continue;
      }
      const target = nullSingles.find(
        (e) =>
          !e.used && e.reply.kind === 'single' && mismatch(response, e.reply.answer) === undefined,
      );
      if (target) target.used = true;
      else problems.push(`unexpected answer ${preview(line)}`);
    }
    for (const e of expected) if (!e.used) problems.push(`no answer to ${describe(e)}`);
    return problems;
  }
}

/** Problems with the stdout stream as a whole: every line one JSON-RPC response (or batch of them). */
export function stdoutProblems(lines: string[]): string[] {
  const problems: string[] = [];
  for (const line of lines) {
    let body: unknown;
    try {
      body = JSON.parse(line);
    } catch {
      problems.push(`not JSON: ${preview(line)}`);
      continue;
    }
    for (const response of Array.isArray(body) ? body : [body]) {
      const envelope = envelopeProblems(response);
      if (envelope.length > 0) problems.push(`${envelope.join('; ')}: ${preview(line)}`);
    }
  }
  return problems;
}
