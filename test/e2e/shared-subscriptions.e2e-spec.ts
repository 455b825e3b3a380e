import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import Redis from 'ioredis';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from '../support/sdk-clients';
import { servicesAvailable, tcpCheck } from '../support/service-availability';
import { SharedReplicas } from '../support/shared-replicas';
import { makeTempDir, removeDir, skillMarkdown, writeSkill } from '../support/skills-dir';

/**
 * Resource subscriptions are part of a shared session's record (#22): the
 * replica that took resources/subscribe may die, and the session's
 * subscriptions live on in Redis and at the replica holding its stream,
 * which alone sends the updates (once, though both replicas see the change).
 */
const available = servicesAvailable('shared subscriptions e2e', [
  tcpCheck('Redis', '127.0.0.1', 6379),
]);

const SKILL_URI = 'skill://shared/watched';

(available ? describe : describe.skip)('resource subscriptions of a shared session', () => {
  let skillsDir: string;
  let pair: SharedReplicas;
  let redis: Redis;
  let version = 0;

  beforeAll(async () => {
    skillsDir = makeTempDir('shared-subscriptions');
    writeSkill(skillsDir, 'shared', 'watched', { 'SKILL.md': skill() });
    pair = await SharedReplicas.start({ MCP_SERVER_SKILLS_DIR: skillsDir });
    redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true });
    await redis.connect();
  }, 180_000);

  afterAll(async () => {
    redis?.disconnect();
    await pair?.stop();
    removeDir(skillsDir);
  }, 60_000);

  function skill(): string {
    return skillMarkdown({ name: 'watched', description: 'A watched skill.' }, `v${++version}`);
  }

  async function recordedSubscriptions(sessionId: string): Promise<unknown> {
    const text = await redis.get(`${pair.prefix}session:${sessionId}`);
    return (JSON.parse(text ?? 'null') as { subscriptions?: unknown } | null)?.subscriptions;
  }

  it('keeps a subscription whose replica died: the stream holder sends the update, once', async () => {
    const { client, transport, streamHolder } = await pair.connect();
    const taker = 1 - streamHolder;
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await pair.steerTo(client, taker);
    await client.subscribeResource({ uri: SKILL_URI });
    expect(pair.proxy.servedFor({ method: 'resources/subscribe' })!.backend).toBe(taker);
    expect(await recordedSubscriptions(transport.sessionId!)).toEqual([SKILL_URI]);

    pair.replicas[taker].child.kill('SIGKILL');
    await pair.replicas[taker].exited;
    writeFileSync(join(skillsDir, 'shared', 'watched', 'SKILL.md'), skill());
    await waitUntil(() => updated.length > 0, 'notifications/resources/updated', 15_000);
    expect(updated).toEqual([SKILL_URI]);

    // The survivor ends it in the record too.
    await client.unsubscribeResource({ uri: SKILL_URI });
    expect(await recordedSubscriptions(transport.sessionId!)).toEqual([]);
    await client.close();
  }, 90_000);
});
