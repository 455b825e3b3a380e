import {
  CreateMessageRequestSchema,
  LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  Progress,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { McpHttpSession } from '../support/mcp-http-session';
import { waitUntil } from '../support/sdk-clients';
import { openSse, SseEvent } from '../support/sse-client';
import { allToolNames } from '../support/sdk-list-pages';
import { servicesAvailable, tcpCheck } from '../support/service-availability';
import { pollUntil, SharedReplicas } from '../support/shared-replicas';
import { makeTempDir, removeDir, skillMarkdown, writeSkill } from '../support/skills-dir';

/**
 * Two gateway processes sharing the machine's Redis (`state.driver: redis`)
 * behind a balancer without session affinity (RoundRobinProxy: every request
 * to the next replica): the official SDK client's session works as if there
 * were one gateway. What one replica learns (log level), sends (progress, a
 * resource update, list_changed, a sampling request) or runs (a call to
 * cancel) is honoured when the client's next message lands on the other.
 */

const available = servicesAvailable('shared sessions e2e', [tcpCheck('Redis', '127.0.0.1', 6379)]);

const SKILL_URI = 'skill://shared/watched';
const NotifyResult = z.looseObject({ sent: z.number(), logged: z.array(z.string()) });
const Counters = z.object({
  sleepAborted: z.number(),
  lastAbortReason: z.object({ message: z.string().optional() }).nullable(),
});

(available ? describe : describe.skip)('sessions shared by two replicas', () => {
  let skillsDir: string;
  let pair: SharedReplicas;

  beforeAll(async () => {
    skillsDir = makeTempDir('shared-skills');
    writeSkill(skillsDir, 'shared', 'watched', {
      'SKILL.md': skillMarkdown({ name: 'watched', description: 'A watched skill.' }, 'v1'),
    });
    pair = await SharedReplicas.start({ MCP_SERVER_SKILLS_DIR: skillsDir });
  }, 180_000);

  afterAll(async () => {
    await pair?.stop();
    removeDir(skillsDir);
  }, 60_000);

  const other = (backend: number) => 1 - backend;

  it('serves one session from both replicas: lists and calls alternate between them', async () => {
    const { client } = await pair.connect();
    const before = pair.proxy.served.length;
    expect(await allToolNames(client)).toContain('fx_add');
    for (let i = 0; i < 4; i++) {
      const result = await client.callTool({ name: 'fx_add', arguments: { a: i, b: 1 } });
      expect(result.structuredContent).toEqual({ sum: i + 1 });
    }
    const posts = pair.proxy.served.slice(before).filter((r) => r.method === 'POST');
    expect(new Set(posts.map((r) => r.backend))).toEqual(new Set([0, 1]));
    await client.close();
  });

  it('delivers the progress of every call while the calls alternate between replicas', async () => {
    const { client } = await pair.connect();
    const backends = new Set<number>();
    for (let i = 0; i < 2; i++) {
      const progress: Progress[] = [];
      const result = await client.callTool(
        { name: 'fx_progress', arguments: { steps: 3 } },
        undefined,
        { onprogress: (p) => progress.push(p) },
      );
      expect((result.content as [{ text: string }])[0].text).toContain('"steps":3');
      expect(progress.map((p) => [p.progress, p.total])).toEqual([
        [1, 3],
        [2, 3],
        [3, 3],
      ]);
      backends.add(pair.proxy.servedFor({ method: 'tools/call' })!.backend);
    }
    expect(backends).toEqual(new Set([0, 1]));
    await client.close();
  });

  it('honours a logging level set on one replica at the other', async () => {
    const { client } = await pair.connect();
    const logged: Array<LoggingMessageNotification['params']> = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logged.push(n.params);
    });
    await client.setLoggingLevel('error');
    const result = await client.request(
      { method: 'fixture/notify', params: { count: 0 } },
      NotifyResult,
    );

    const setLevel = pair.proxy.servedFor({ method: 'logging/setLevel' })!;
    const notify = pair.proxy.servedFor({ method: 'fixture/notify' })!;
    expect(notify.backend).toBe(other(setLevel.backend));
    const atOrAboveError = ['error', 'critical', 'alert', 'emergency'];
    expect(result.logged).toEqual(atOrAboveError);
    await waitUntil(() => logged.length >= atOrAboveError.length, 'the log notifications');
    expect(logged.map((m) => m.level)).toEqual(atOrAboveError);
    await client.close();
  });

  it('brings a resource update from the replica holding the subscription to the stream held by the other', async () => {
    const { client, streamHolder } = await pair.connect();
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await pair.steerTo(client, other(streamHolder));
    await client.subscribeResource({ uri: SKILL_URI });
    expect(pair.proxy.servedFor({ method: 'resources/subscribe' })!.backend).toBe(
      other(streamHolder),
    );

    writeFileSync(
      join(skillsDir, 'shared', 'watched', 'SKILL.md'),
      skillMarkdown({ name: 'watched', description: 'A watched skill.' }, 'v2'),
    );
    await waitUntil(() => updated.length > 0, 'notifications/resources/updated', 15_000);
    expect(updated).toEqual([SKILL_URI]);
    await client.close();
  });

  // Each replica has its own tool registry: fx_register changes the list of one of them only, so
  // what this shows is the path of a list_changed raised where the stream is not held.
  it('brings tools/list_changed raised on one replica to the stream held by the other', async () => {
    const { client, streamHolder } = await pair.connect();
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    await pair.steerTo(client, other(streamHolder));
    await client.callTool({ name: 'fx_register', arguments: { name: 'fx_replica_extra' } });
    expect(pair.proxy.servedFor({ method: 'tools/call' })!.backend).toBe(other(streamHolder));
    await waitUntil(() => changed > 0, 'notifications/tools/list_changed');

    await pair.steerTo(client, other(streamHolder));
    await client.callTool({ name: 'fx_unregister', arguments: { name: 'fx_replica_extra' } });
    await waitUntil(() => changed > 1, 'the second notifications/tools/list_changed');
    await client.close();
  });

  it('aborts a call running on one replica when its cancellation lands on the other', async () => {
    const { client, transport } = await pair.connect();
    const controller = new AbortController();
    const running = pair.proxy.forwarded.length;
    const call = client.callTool({ name: 'fx_sleep', arguments: { ms: 30_000 } }, undefined, {
      signal: controller.signal,
    });
    await waitUntil(
      () =>
        pair.proxy.forwarded
          .slice(running)
          .some((r) => r.rpc.some((m) => m.method === 'tools/call')),
      'the call to reach a replica',
    );
    const ranOn = pair.proxy.forwarded
      .slice(running)
      .find((r) => r.rpc.some((m) => m.method === 'tools/call'))!.backend;
    // fx_counter reads the counters of the process it runs in: asked of that replica directly.
    const counterOf = async (backend: number) => {
      const answer = await pair.postTo(backend, transport.sessionId!, {
        id: 'counter',
        method: 'tools/call',
        params: { name: 'fx_counter', arguments: {} },
      });
      const body = (await answer.json()) as { result: { content: [{ text: string }] } };
      return Counters.parse(JSON.parse(body.result.content[0].text));
    };
    const abortedBefore = (await counterOf(ranOn)).sleepAborted;

    controller.abort('replica test cancel');
    await expect(call).rejects.toThrow();
    await waitUntil(
      () =>
        pair.proxy.served.some((r) => r.rpc.some((m) => m.method === 'notifications/cancelled')),
      'the cancellation to reach a replica',
    );
    expect(pair.proxy.servedFor({ method: 'notifications/cancelled' })!.backend).toBe(other(ranOn));
    const counters = await pollUntil(
      () => counterOf(ranOn),
      (c) => c.sleepAborted > abortedBefore,
      'fx_sleep to be aborted',
    );
    expect(counters.sleepAborted).toBe(abortedBefore + 1);
    expect(counters.lastAbortReason?.message).toContain('Request cancelled');
    await client.close();
  });

  it('routes the answer to a sampling request back to the replica that asked', async () => {
    const { client } = await pair.connect();
    client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
      role: 'assistant',
      model: 'test-model',
      content: {
        type: 'text',
        text: `echo: ${(request.params.messages[0].content as { text: string }).text}`,
      },
    }));
    for (let i = 0; i < 2; i++) {
      const before = pair.proxy.served.length;
      const result = await client.callTool({ name: 'fx_sample', arguments: { prompt: `p${i}` } });
      expect(JSON.stringify(result.structuredContent ?? result.content)).toContain(`echo: p${i}`);
      const posts = pair.proxy.served.slice(before);
      const call = posts.find((r) => r.rpc.some((m) => m.method === 'tools/call'))!;
      const answer = posts.find((r) =>
        r.rpc.some((m) => m.method === undefined && typeof m.id === 'string'),
      )!;
      expect(answer.backend).toBe(other(call.backend));
    }
    await client.close();
  });

  it('refuses the session to another client identity at the replica that did not open it', async () => {
    const { client, transport } = await pair.connect();
    const opened = pair.proxy.servedFor({ method: 'initialize' })!;
    const list = { id: 1, method: 'tools/list' };
    const stranger = await pair.postTo(
      other(opened.backend),
      transport.sessionId!,
      list,
      'someone-else',
    );
    expect(stranger.status).toBe(403);
    const owner = await pair.postTo(other(opened.backend), transport.sessionId!, list);
    expect(owner.status).toBe(200);
    await client.close();
  });

  it('resumes the standalone stream at the other replica with Last-Event-ID: what the first sent is replayed', async () => {
    const [a, b] = pair.replicas;
    const headers = { 'x-mcp-client-id': 'resume-e2e' };
    const session = await McpHttpSession.open(a.baseUrl, headers);
    const onA = await session.openStream();
    const listChanged = (seen: number) => (event: SseEvent) =>
      event.data.includes('notifications/tools/list_changed') && onA.events.indexOf(event) >= seen;
    // Each tool registered on A changes A's list: A tells the session on the stream it holds.
    const sent: SseEvent[] = [];
    for (let i = 0; i < 3; i++) {
      const seen = onA.events.length;
      const reply = await session.request(i, 'tools/call', {
        name: 'fx_register',
        arguments: { name: `fx_resume_${i}` },
      });
      expect(reply).toHaveProperty('result');
      sent.push(await onA.next(listChanged(seen)));
    }
    await onA.abort();
    expect(sent.map((event) => event.id)).toEqual([
      expect.stringMatching(/^g[0-9a-f]{8}\/\d+$/),
      expect.any(String),
      expect.any(String),
    ]);

    const resumed = await openSse(`${b.baseUrl}/mcp`, {
      ...headers,
      'mcp-session-id': session.sessionId,
      'mcp-protocol-version': '2025-11-25',
      'last-event-id': sent[0].id!,
    });
    expect(resumed.status).toBe(200);
    const replayed = await resumed.next((event) => event.id === sent[2].id);
    expect(resumed.events.filter((event) => event.id !== undefined).map((e) => e.id)).toEqual([
      sent[1].id,
      sent[2].id,
    ]);
    expect(replayed.data).toBe(sent[2].data);
    await resumed.abort();
    await session.close();
  });

  it('ends the session on both replicas when one of them answers DELETE', async () => {
    const { client, transport } = await pair.connect();
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    for (const backend of [0, 1]) {
      const answer = await pair.postTo(backend, sessionId, { id: 1, method: 'tools/list' });
      expect(answer.status).toBe(404);
    }
    await client.close();
  });
});
