import {
  CreateMessageRequestSchema,
  CreateMessageResult,
  ErrorCode,
  McpError,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { waitUntil } from '../support/sdk-clients';
import { servicesAvailable, tcpCheck } from '../support/service-availability';
import { ReplicaClient, SharedReplicas } from '../support/shared-replicas';
import { makeTempDir, removeDir, skillMarkdown, writeSkill } from '../support/skills-dir';

/**
 * A replica killed with SIGKILL in the middle of a shared session (two
 * gateway processes on one Redis behind a RoundRobinProxy, the SDK client):
 * the client's standalone stream comes back on the survivor and keeps
 * receiving, a call in flight on the dead replica fails at the client instead
 * of hanging, and new calls are served by the survivor.
 */

const available = servicesAvailable('shared sessions failover e2e', [
  tcpCheck('Redis', '127.0.0.1', 6379),
]);

const SKILL_URI = 'skill://shared/watched';
/** The client's own bound on a call: far above any answer, far below a hang. */
const CALL_DEADLINE_MS = 10_000;

(available ? describe : describe.skip)('a replica killed under a shared session', () => {
  let skillsDir: string;
  let pair: SharedReplicas;
  let version = 0;

  beforeEach(async () => {
    skillsDir = makeTempDir('failover-skills');
    writeSkill(skillsDir, 'shared', 'watched', { 'SKILL.md': skill() });
    pair = await SharedReplicas.start({ MCP_SERVER_SKILLS_DIR: skillsDir });
  }, 180_000);

  afterEach(async () => {
    await pair?.stop();
    removeDir(skillsDir);
  }, 60_000);

  function skill(): string {
    return skillMarkdown({ name: 'watched', description: 'A watched skill.' }, `v${++version}`);
  }

  function changeSkill(): void {
    writeFileSync(join(skillsDir, 'shared', 'watched', 'SKILL.md'), skill());
  }

  /** Connects, subscribes at the replica that will survive, and sees one update on the stream. */
  async function subscribedClient(): Promise<ReplicaClient & { updates: () => number }> {
    const connected = await pair.connect();
    let updates = 0;
    connected.client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {
      updates++;
    });
    await pair.steerTo(connected.client, 1 - connected.streamHolder);
    await connected.client.subscribeResource({ uri: SKILL_URI });
    changeSkill();
    await waitUntil(() => updates === 1, 'the first resource update', 15_000);
    return { ...connected, updates: () => updates };
  }

  async function killAndExpectRecovery(connected: ReplicaClient & { updates: () => number }) {
    const { client, streamHolder } = connected;
    const before = pair.proxy.served.length;
    pair.replicas[streamHolder].child.kill('SIGKILL');
    await pair.replicas[streamHolder].exited;

    // The SDK reopens its stream with the Last-Event-ID it saw from the dead replica.
    await waitUntil(
      () =>
        pair.proxy.served
          .slice(before)
          .some((r) => r.method === 'GET' && r.resuming && r.rpc.length === 0 && r.status === 200),
      'the standalone stream to reopen on the survivor',
      15_000,
    );
    expect(pair.proxy.served.slice(before).every((r) => r.backend === 1 - streamHolder)).toBe(true);
    changeSkill();
    await waitUntil(() => connected.updates() === 2, 'a resource update after the kill', 15_000);
    for (let i = 0; i < 2; i++) {
      const result = await client.callTool({ name: 'fx_add', arguments: { a: i, b: 2 } });
      expect(result.structuredContent).toEqual({ sum: i + 2 });
    }
  }

  /** How the call ended: 'answered', 'client deadline' (a hang, cut short) or the error that failed it. */
  function outcome(call: Promise<unknown>): Promise<unknown> {
    return call.then(
      () => 'answered',
      (err: unknown) =>
        err instanceof McpError && err.code === Number(ErrorCode.RequestTimeout)
          ? 'client deadline'
          : err,
    );
  }

  function expectFailedByTheKill(ended: unknown): void {
    expect(ended).not.toBe('answered');
    expect(ended).not.toBe('client deadline');
  }

  it('fails a call awaiting its answer on the dead replica and goes on at the survivor', async () => {
    const connected = await subscribedClient();
    const { client, streamHolder } = connected;
    await pair.steerTo(client, streamHolder);
    const forwarded = pair.proxy.forwarded.length;
    const call = client.request(
      { method: 'fixture/sleep', params: { ms: 60_000 } },
      z.looseObject({}),
      { timeout: CALL_DEADLINE_MS },
    );
    await waitUntil(
      () => pair.proxy.forwarded.slice(forwarded).some((r) => r.backend === streamHolder),
      'the call to reach the replica holding the stream',
    );

    const ended = outcome(call);
    await killAndExpectRecovery(connected);
    expectFailedByTheKill(await ended);
    await client.close();
  }, 90_000);

  // The SDK resumes the call's POST stream at the survivor with the dead replica's Last-Event-ID; the
  // survivor finds the stream's record in Redis, sees the replica's heartbeat expire and fails the call.
  it('fails a call whose answer was streaming from the dead replica', async () => {
    const connected = await subscribedClient();
    const { client, streamHolder } = connected;
    let sampled = false;
    // The client never answers: the call stays in flight on its replica until the kill.
    client.setRequestHandler(CreateMessageRequestSchema, () => {
      sampled = true;
      return new Promise<CreateMessageResult>(() => undefined);
    });
    await pair.steerTo(client, streamHolder);
    const call = client.callTool({ name: 'fx_sample', arguments: { prompt: 'never' } }, undefined, {
      timeout: CALL_DEADLINE_MS,
    });
    await waitUntil(() => sampled, 'the sampling request of the call');

    const ended = outcome(call);
    await killAndExpectRecovery(connected);
    const failed = await ended;
    expectFailedByTheKill(failed);
    expect(failed).toBeInstanceOf(McpError);
    expect(failed).toMatchObject({
      code: Number(ErrorCode.InternalError),
      data: { reason: 'replica_lost', retryable: true },
    });
    await client.close();
  }, 90_000);
});
