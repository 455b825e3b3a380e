import { upstreamRecord } from '../../test/support/upstream-records';
import { upstreamRegisteredPrompt } from './upstream-registered-prompt';
import { UPSTREAM_LIST_RELAY_LIMITS } from './upstream-list-relay.limits';
import type { UpstreamPool } from './upstream.pool';

const record = upstreamRecord('alpha', { transport: 'stdio', stdio: undefined });
const pool = { connection: () => undefined } as unknown as UpstreamPool;

describe('upstreamRegisteredPrompt', () => {
  it('maps an upstream prompt under its exposed name, description cut', () => {
    const prompt = upstreamRegisteredPrompt(
      record,
      {
        name: 'greet',
        description: 'x'.repeat(20_000),
        arguments: [{ name: 'who', required: true }],
      },
      'alpha__greet',
      pool,
    );
    expect(typeof prompt).not.toBe('string');
    if (typeof prompt === 'string') return;
    expect(prompt.name).toBe('alpha__greet');
    expect(prompt.origin).toBe('upstream:alpha/greet');
    expect(prompt.options.description).toHaveLength(UPSTREAM_LIST_RELAY_LIMITS.maxDescriptionChars);
    expect(prompt.options.arguments).toEqual([{ name: 'who', required: true }]);
  });

  it('refuses a prompt with too many arguments or an over-long argument name, saying why', () => {
    const many = Array.from(
      { length: UPSTREAM_LIST_RELAY_LIMITS.maxPromptArguments + 1 },
      (_, i) => ({
        name: `a${i}`,
      }),
    );
    expect(
      upstreamRegisteredPrompt(record, { name: 'p', arguments: many }, 'alpha__p', pool),
    ).toMatch(/more than the limit of 64/);
    const long = [{ name: 'n'.repeat(UPSTREAM_LIST_RELAY_LIMITS.maxNameChars + 1) }];
    expect(
      upstreamRegisteredPrompt(record, { name: 'p', arguments: long }, 'alpha__p', pool),
    ).toMatch(/longer than 1024 characters/);
  });

  it('answers a get on a server that left the registry with mcp_unavailable', async () => {
    const prompt = upstreamRegisteredPrompt(record, { name: 'p' }, 'alpha__p', pool);
    if (typeof prompt === 'string') throw new Error(prompt);
    await expect(
      prompt.render({}, { clientId: 'c', signal: new AbortController().signal }),
    ).rejects.toMatchObject({ data: { code: 'mcp_unavailable', server_id: 'alpha' } });
  });
});
