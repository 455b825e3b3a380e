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

interface HttpAnswer {
  status: number;
  contentType: string;
  text: string;
  sessionId: string | null;
}

export async function postMcp(
  baseUrl: string,
  body: Uint8Array,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    text: await res.text(),
    sessionId: res.headers.get('mcp-session-id'),
  };
}

export async function deleteSession(baseUrl: string, sessionId: string): Promise<number> {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'DELETE',
    headers: { 'mcp-session-id': sessionId },
  });
  await res.arrayBuffer();
  return res.status;
}

/** initialize + notifications/initialized over plain fetch; resolves with the session id. */
export async function openSession(baseUrl: string, protocolVersion: string): Promise<string> {
  const init = await postMcp(
    baseUrl,
    Buffer.from(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
      }),
    ),
  );
  if (init.status !== 200 || !init.sessionId) {
    throw new Error(`initialize failed: ${init.status} ${init.text}`);
  }
  const ack = await postMcp(
    baseUrl,
    Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })),
    { 'mcp-session-id': init.sessionId, 'mcp-protocol-version': protocolVersion },
  );
  if (ack.status !== 202) throw new Error(`notifications/initialized got ${ack.status}`);
  return init.sessionId;
}

/** The JSON-RPC body of an answer, also when the gateway chose to answer with an SSE stream. */
function bodyOf(answer: HttpAnswer): unknown {
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
      let answer: HttpAnswer;
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

  private async check(answer: HttpAnswer, expected: HttpExpectation): Promise<string | undefined> {
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
