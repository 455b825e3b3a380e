import { deleteSession, McpPostAnswer, postMcp } from '../../support/mcp-fetch';
import { FrameSpec, IdCounter, materialize } from './fuzz-frames';
import { FuzzStats, pooled } from './fuzz-runner';
import {
  batchMismatch,
  expectHttp,
  HttpExpectation,
  mismatch,
  preview,
  SessionState,
} from './jsonrpc-oracle';

export interface HttpTarget {
  baseUrl: string;
  /** The Mcp-Session-Id to send; none: requests without a session. */
  sessionId?: string;
  protocolVersion?: string;
}

function bodyOf(answer: McpPostAnswer): unknown {
  if (!answer.contentType.includes('text/event-stream')) return JSON.parse(answer.text);
  const messages = answer.text
    .replace(/\r\n/g, '\n')
    .split('\n\n')
    .map((block) =>
      block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as unknown);
  return messages[messages.length - 1];
}

/**
 * POSTs every frame of a list to /mcp (keep-alive fetch, a few at a time)
 * and checks each answer against the oracle: status, content type, body.
 */
export class HttpFuzzer {
  readonly stats = new FuzzStats();
  /** Sessions opened by fuzzed initialize requests, deleted again. */
  sessionsOpened = 0;

  constructor(
    readonly target: HttpTarget,
    readonly session: SessionState,
    readonly ids: IdCounter,
    readonly concurrency = 8,
  ) {}

  async run(frames: FrameSpec[]): Promise<string[]> {
    const problems: string[] = [];
    const bodies = frames.map((frame) => materialize(frame, this.ids));
    const expectations = bodies.map((body) =>
      expectHttp(body, this.session, this.target.sessionId !== undefined),
    );
    const headers: Record<string, string> = {};
    if (this.target.sessionId) headers['mcp-session-id'] = this.target.sessionId;
    if (this.target.protocolVersion) headers['mcp-protocol-version'] = this.target.protocolVersion;
    await pooled(bodies, this.concurrency, async (body, index) => {
      const expected = expectations[index];
      let answer: McpPostAnswer;
      try {
        answer = await postMcp(this.target.baseUrl, body, headers);
      } catch (err) {
        problems.push(`POST failed (${String(err)}) for ${describe(body, expected)}`);
        return;
      }
      const why = await this.check(answer, expected);
      if (why)
        problems.push(
          `${why}: got ${answer.status} ${preview(answer.text)} for ${describe(body, expected)}`,
        );
    });
    this.stats.add(
      frames,
      expectations.filter((e) => e.reply.kind !== 'none').length,
      expectations.filter((e) => e.reply.kind === 'none').length,
    );
    this.stats.count(expectations.map((e) => e.reply));
    return problems;
  }

  private async check(
    answer: McpPostAnswer,
    expected: HttpExpectation,
  ): Promise<string | undefined> {
    if (answer.sessionId !== null && answer.sessionId !== this.target.sessionId) {
      // A new session: only a successful initialize may open one; it is closed again.
      this.sessionsOpened++;
      const deleted = await deleteSession(this.target.baseUrl, answer.sessionId);
      if (deleted !== 200) return `DELETE of the new session answered ${deleted}`;
      if (!expected.opensSession) return 'a session was opened by something other than initialize';
    }
    if (answer.status !== expected.status)
      return `status ${answer.status}, expected ${expected.status}`;
    const { reply } = expected;
    if (reply.kind === 'none') {
      return answer.text === '' ? undefined : 'a body where none was expected';
    }
    if (!/^(application\/json|text\/event-stream)\b/.test(answer.contentType)) {
      return `content type ${answer.contentType}`;
    }
    let body: unknown;
    try {
      body = bodyOf(answer);
    } catch {
      return 'the body is not JSON';
    }
    if (reply.kind === 'single') {
      const why = mismatch(body, reply.answer);
      if (why) return why;
      const opened = answer.sessionId !== null && answer.sessionId !== this.target.sessionId;
      const succeeded = typeof body === 'object' && body !== null && 'result' in body;
      if (expected.opensSession && opened !== succeeded) {
        return opened
          ? 'a failed initialize left a session behind'
          : 'initialize succeeded without a session';
      }
      return undefined;
    }
    const problems = batchMismatch(body, reply.answers);
    return problems.length > 0 ? problems.join('; ') : undefined;
  }
}

function describe(body: Buffer, expected: HttpExpectation): string {
  return `${preview(body.toString('utf8'), 240)} (expected ${expected.status} ${preview(expected.reply)})`;
}
