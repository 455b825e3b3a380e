import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionRegistry } from '../../src/session/session.registry';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { rpcError } from '../support/rpc-error';
import { connectSdkClient, SdkClientHandle, waitUntil } from '../support/sdk-clients';
import { makeTempDir, removeDir, skillMarkdown, writeSkill } from '../support/skills-dir';

/**
 * resources/subscribe keeps the URI for the session's life (and, with shared
 * sessions, in its Redis record, rewritten on every change): a client that
 * subscribes without end, or to megabyte URIs, would grow the gateway's
 * memory and every record write. Both are capped, and the refusal names the
 * limit; what the session already holds keeps working.
 */
const MOST = 5;
const LONGEST = 256;
const WATCHED = 'skill://docs/watched';

describe('resource subscription caps', () => {
  let skillsDir: string;
  let gateway: HttpGatewayHandle;
  let handle: SdkClientHandle;

  beforeAll(async () => {
    skillsDir = makeTempDir('subscription-caps');
    writeSkill(skillsDir, 'docs', 'watched', {
      'SKILL.md': skillMarkdown({ name: 'watched', description: 'Watched.' }, 'v1'),
    });
    for (const name of [...Array.from({ length: MOST }, (_, i) => `s${i + 1}`), 'one-too-many']) {
      writeSkill(skillsDir, 'docs', name, {
        'SKILL.md': skillMarkdown({ name, description: `Skill ${name}.` }, 'body'),
      });
    }
    gateway = await startHttpGateway({
      config: {
        resources: { skills_dir: skillsDir },
        limits: { subscriptions_per_session: MOST, subscription_uri_max_chars: LONGEST },
      },
    });
    handle = await connectSdkClient({ kind: 'streamable-http', baseUrl: gateway.baseUrl });
  }, 60_000);

  afterAll(async () => {
    await handle?.dispose();
    await gateway?.close();
    removeDir(skillsDir);
  });

  it(`refuses subscription ${MOST + 1} of a session naming limits.subscriptions_per_session, keeps the first ${MOST}`, async () => {
    const { client } = handle;
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await client.subscribeResource({ uri: WATCHED });
    for (let i = 1; i < MOST; i++) await client.subscribeResource({ uri: `skill://docs/s${i}` });
    // Subscribing again to a URI it holds takes no new slot.
    expect(await client.subscribeResource({ uri: WATCHED })).toEqual({});

    const refused = await rpcError(client.subscribeResource({ uri: 'skill://docs/one-too-many' }));
    expect(refused.code).toBe(-32602);
    expect(refused.message).toContain('limits.subscriptions_per_session');
    expect(refused.data).toMatchObject({ limit: 'limits.subscriptions_per_session', max: MOST });

    const [session] = [...gateway.app.get(SessionRegistry).sessionsHere()];
    expect(session.subscriptions.size).toBe(MOST);
    // The subscriptions it holds still work.
    writeFileSync(
      join(skillsDir, 'docs', 'watched', 'SKILL.md'),
      skillMarkdown({ name: 'watched', description: 'Watched.' }, 'v2'),
    );
    await waitUntil(() => updated.includes(WATCHED), 'notifications/resources/updated', 15_000);

    // An unsubscribe frees a slot.
    await client.unsubscribeResource({ uri: 'skill://docs/s1' });
    expect(await client.subscribeResource({ uri: 'skill://docs/one-too-many' })).toEqual({});
  });

  it('refuses a URI longer than limits.subscription_uri_max_chars and keeps nothing of it', async () => {
    const { client } = handle;
    const [session] = [...gateway.app.get(SessionRegistry).sessionsHere()];
    const before = [...session.subscriptions];
    const uri = `skill://docs/${'x'.repeat(1024 * 1024)}`;
    const refused = await rpcError(client.subscribeResource({ uri }));
    expect(refused.code).toBe(-32602);
    expect(refused.message).toContain('limits.subscription_uri_max_chars');
    expect([...session.subscriptions]).toEqual(before);
  });
});
