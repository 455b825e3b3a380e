import Redis from 'ioredis';
import { McpHttpSession } from '../support/mcp-http-session';
import { servicesAvailable, tcpCheck } from '../support/service-availability';
import { pollUntil, SharedReplicas } from '../support/shared-replicas';
import { messageOf, openSse, SseConnection, SseEvent } from '../support/sse-client';
import { requestLine } from '../support/log-lines';

/**
 * POST streams of shared sessions across two replicas (`state.driver: redis`),
 * on the wire: the record that says which requests a stream answers and which
 * replica runs them, the replicas' heartbeats, a stream resumed at the other
 * replica while its own still runs the call (relayed) or after it was killed
 * (its requests fail, with their callers' trace ids), and resumes that name
 * no recorded stream.
 */

const available = servicesAvailable('shared POST streams e2e', [
  tcpCheck('Redis', '127.0.0.1', 6379),
]);

const HEADERS = { 'x-mcp-client-id': 'post-streams-e2e' };
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const SAMPLING = { sampling: {} };

const isSamplingRequest = (event: SseEvent) => event.data.includes('"sampling/createMessage"');
const isAnswerTo = (id: string) => (event: SseEvent) => {
  const message = event.data === '' ? {} : messageOf(event);
  return message.id === id && !('method' in message);
};

(available ? describe : describe.skip)('POST streams of shared sessions', () => {
  let pair: SharedReplicas;
  let redis: Redis;

  beforeAll(async () => {
    pair = await SharedReplicas.start({ MCP_SERVER_LIMITS_SSE_STREAMS_PER_CLIENT: '2' });
    redis = new Redis('redis://127.0.0.1:6379');
  }, 180_000);

  afterAll(async () => {
    await pair?.stop();
    await redis?.quit();
  }, 60_000);

  const streamKey = (sessionId: string, streamId: string) =>
    `${pair.prefix}stream:${sessionId}:${streamId}`;
  const streamIdOf = (event: SseEvent) => event.id!.split('/')[0];
  /** A POST stream id is `p<replica id: 8 hex digits><n>`. */
  const replicaOf = (streamId: string) => streamId.slice(1, 9);

  /** A fx_sample call on `backend`, read as a stream, up to the sampling request it sends the client. */
  async function sampleCallOn(
    session: McpHttpSession,
    id: string,
  ): Promise<{ call: SseConnection; sampling: SseEvent; streamId: string }> {
    const call = await session.postStream({
      id,
      method: 'tools/call',
      params: { name: 'fx_sample', arguments: { prompt: id } },
    });
    expect(call.status).toBe(200);
    const sampling = await call.next(isSamplingRequest);
    return { call, sampling, streamId: streamIdOf(sampling) };
  }

  /** The client's answer to a sampling request, posted to `backend` (it finds its way to the asker). */
  async function answerSampling(backend: number, session: McpHttpSession, sampling: SseEvent) {
    const answer = await pair.postTo(
      backend,
      session.sessionId,
      {
        id: messageOf(sampling).id,
        result: {
          role: 'assistant',
          model: 'test-model',
          content: { type: 'text', text: `sampled ${String(messageOf(sampling).id)}` },
        },
      },
      HEADERS['x-mcp-client-id'],
    );
    expect(answer.status).toBe(202);
  }

  function resumeAt(backend: number, session: McpHttpSession, lastEventId: string) {
    return openSse(`${pair.replicas[backend].baseUrl}/mcp`, {
      ...HEADERS,
      'mcp-session-id': session.sessionId,
      'mcp-protocol-version': '2025-11-25',
      'last-event-id': lastEventId,
    });
  }

  it('records the requests of a POST stream while it streams, and nothing for a plain JSON answer', async () => {
    const [a] = pair.replicas;
    const session = await McpHttpSession.open(a.baseUrl, HEADERS, SAMPLING);
    const added = await session.request('add-1', 'tools/call', {
      name: 'fx_add',
      arguments: { a: 1, b: 2 },
    });
    expect(added).toHaveProperty('result');
    expect(await redis.keys(`${pair.prefix}stream:${session.sessionId}:*`)).toEqual([]);

    const { call, sampling, streamId } = await sampleCallOn(session, 'rec-1');
    const recorded = JSON.parse((await redis.get(streamKey(session.sessionId, streamId)))!);
    expect(recorded).toEqual({ origin: replicaOf(streamId), requestIds: ['rec-1'] });
    expect(await redis.pttl(streamKey(session.sessionId, streamId))).toBeGreaterThan(0);

    await answerSampling(1, session, sampling);
    const result = await call.next(isAnswerTo('rec-1'));
    expect(result.data).toContain('sampled');
    await call.ended;
    await pollUntil(
      () => redis.exists(streamKey(session.sessionId, streamId)),
      (exists) => exists === 0,
      'the record of the ended stream to be deleted',
    );
    await session.close();
  });

  it('answers a resume naming a stream nobody recorded, or another session’s, as an unknown stream (400)', async () => {
    const [a] = pair.replicas;
    const session = await McpHttpSession.open(a.baseUrl, HEADERS, SAMPLING);
    const stranger = await McpHttpSession.open(a.baseUrl, HEADERS, SAMPLING);
    const { call, sampling, streamId } = await sampleCallOn(session, 'unknown-1');

    const invented = await resumeAt(1, session, `p${replicaOf(streamId)}99/3`);
    expect(invented.status).toBe(400);
    await invented.ended;
    expect(invented.text).toContain('names no stream of this session');
    // Records are per session: another session cannot take over (or fail) this one's stream.
    const borrowed = await resumeAt(1, stranger, sampling.id!);
    expect(borrowed.status).toBe(400);
    await borrowed.ended;
    expect(await redis.exists(streamKey(session.sessionId, streamId))).toBe(1);

    await answerSampling(0, session, sampling);
    await call.next(isAnswerTo('unknown-1'));
    await session.close();
    await stranger.close();
  });

  it('relays a stream resumed at the other replica while its own still runs the call (a network blip)', async () => {
    const [a] = pair.replicas;
    const session = await McpHttpSession.open(a.baseUrl, HEADERS, SAMPLING);
    const { call, sampling, streamId } = await sampleCallOn(session, 'blip-1');
    await call.abort();

    const resumed = await resumeAt(1, session, sampling.id!);
    expect(resumed.status).toBe(200);
    await answerSampling(1, session, sampling);
    const result = await resumed.next(isAnswerTo('blip-1'));
    expect(result.id).toMatch(new RegExp(`^${streamId}/\\d+$`));
    expect(JSON.stringify(messageOf(result))).toContain('sampled');
    await resumed.ended;
    await session.close();
  });

  it('holds streams resumed for another replica within limits.sse_streams_per_client, one connection each', async () => {
    const [a] = pair.replicas;
    const session = await McpHttpSession.open(a.baseUrl, HEADERS, SAMPLING);
    const calls = [];
    for (let i = 0; i < 3; i++) calls.push(await sampleCallOn(session, `capped-${i}`));

    const first = await resumeAt(1, session, calls[0].sampling.id!);
    expect(first.status).toBe(200);
    const twice = await resumeAt(1, session, calls[0].sampling.id!);
    expect(twice.status).toBe(409);
    await twice.ended;
    const second = await resumeAt(1, session, calls[1].sampling.id!);
    expect(second.status).toBe(200);
    const third = await resumeAt(1, session, calls[2].sampling.id!);
    expect(third.status).toBe(429);
    await third.ended;
    expect(third.text).toContain('sse_streams_per_client');

    for (const { sampling } of calls) await answerSampling(0, session, sampling);
    // The relayed answers end the held streams, which frees their slots.
    await first.next(isAnswerTo('capped-0'));
    await second.next(isAnswerTo('capped-1'));
    await Promise.all([first.ended, second.ended, calls[2].call.next(isAnswerTo('capped-2'))]);
    await session.close();
  });

  it('fails the requests of a stream whose replica was killed, once, and its heartbeat expires', async () => {
    const [a, b] = pair.replicas;
    const traced = { ...HEADERS, traceparent: TRACEPARENT };
    const session = await McpHttpSession.open(a.baseUrl, traced, SAMPLING);
    const { call, sampling, streamId } = await sampleCallOn(session, 'killed-1');
    const killed = replicaOf(streamId);
    // The record keeps the trace its caller named, for the replica that fails the request.
    expect(JSON.parse((await redis.get(streamKey(session.sessionId, streamId)))!)).toEqual({
      origin: killed,
      requestIds: ['killed-1'],
      traceIds: [TRACE_ID],
    });
    const heartbeats = await redis.keys(`${pair.prefix}replica:*`);
    expect(heartbeats).toHaveLength(2);
    expect(heartbeats).toContain(`${pair.prefix}replica:${killed}`);
    const survivor = heartbeats.find((key) => !key.endsWith(killed))!;

    a.child.kill('SIGKILL');
    await a.exited;
    await call.ended;
    const resumed = await resumeAt(1, session, sampling.id!);
    expect(resumed.status).toBe(200);
    const failed = messageOf(await resumed.next(isAnswerTo('killed-1'), 15_000));
    expect(failed.error).toMatchObject({
      code: -32603,
      message: expect.stringContaining('stopped before it answered'),
      data: { retryable: true, reason: 'replica_lost', replica: killed, traceId: TRACE_ID },
    });
    // The survivor logs the failure under that trace id: a gateway fault, at error.
    expect(await requestLine(() => b.stderr, 'killed-1', session.sessionId)).toMatchObject({
      level: 50,
      traceId: TRACE_ID,
      errorCode: -32603,
      outcome: 'internal_error',
    });
    await resumed.ended;
    expect(await redis.exists(`${pair.prefix}replica:${killed}`)).toBe(0);

    // The requests were failed once: the record is gone, the stream is now unknown.
    const again = await resumeAt(1, session, sampling.id!);
    expect(again.status).toBe(400);
    await again.ended;

    // A graceful stop deletes the heartbeat (a killed replica's only expires).
    await b.stop();
    expect(await redis.exists(survivor)).toBe(0);
  }, 60_000);
});
