import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { REDACTED } from '../../src/ledger/argument-redactor';
import { ClientGroup, openClients, writeConfig } from '../support/governed-clients';
import { connectSdkClients, SdkClientHandle } from '../support/sdk-clients';
import { skillMarkdown, writeSkill } from '../support/skills-dir';
import { readLedgerRows } from '../support/sqlite-ledger';
import { GENEROUS_QUOTA } from '../support/test-defaults';
import { rpcError } from '../support/rpc-error';

/**
 * Finding 4 of issue #21, each side door of visibility tried as the review
 * tried it and now shut, over Streamable HTTP (every client on one gateway in
 * this process, so caches are shared between them) and stdio (one gateway
 * process per client), through the official SDK client: a prompt that embeds
 * orders data, its completions, prompts/get under rate limit and ledger, a
 * tool description carrying a hidden skill's text, and deny rules on files
 * inside a skill.
 */

const KINDS = ['streamable-http', 'stdio'] as const;
type Kind = (typeof KINDS)[number];

const ORDER_PROMPT = 'draft_order_confirmation';
const ORDER_ID = 'ORD-1001';
const ORDER_EMAIL = 'maya.lindqvist@example.com';
const SKILL_TEXT = 'PLACE-ORDER-SKILL-TEXT: confirm the shipping address before placing.';
const SECRET_TEXT = 'TOP-SECRET-REFERENCE';
const LIMITED_PER_MINUTE = 3;
const FILE_TEMPLATE = 'skill://{category}/{name}/{+path}';

/** The clients of every scenario: ids the config below gives their own rules. */
const CLIENTS = ['allowed', 'no-orders', 'no-order-skill', 'limited'] as const;
type ClientId = (typeof CLIENTS)[number];

const SkillEntry = z.looseObject({
  uri: z.string(),
  resources: z.array(z.looseObject({ uri: z.string(), digest: z.string(), size: z.number() })),
});
const SkillsList = z.looseObject({ skills: z.array(SkillEntry) });
const SkillsGet = z.looseObject({ skill: SkillEntry });
const DirectoryRead = z.looseObject({
  resources: z.array(z.looseObject({ uri: z.string(), name: z.string() })),
});

function writeSkills(root: string): void {
  const md = (name: string, body: string) => skillMarkdown({ name, description: name }, body);
  writeSkill(root, 'orders', 'place-order', {
    'SKILL.md': md('place-order', `# Placing orders\n\n${SKILL_TEXT}\n`),
  });
  writeSkill(root, 'inventory', 'reorder-policy', {
    'SKILL.md': md('reorder-policy', '# Reorder policy\n'),
  });
  writeSkill(root, 'docs', 'handbook', {
    'SKILL.md': md('handbook', '# Handbook\n'),
    'notes.md': '# Notes\n',
    'refs/secret.md': `# ${SECRET_TEXT}\n`,
    'refs/deep/more.md': `# ${SECRET_TEXT} 2\n`,
  });
  writeSkill(root, 'docs', 'sealed', {
    'SKILL.md': md('sealed', `# ${SECRET_TEXT} 3\n`),
    'extra.md': '# extra\n',
  });
}

function writeGatewayConfig(dir: string, skillsDir: string, ledger: string): string {
  return writeConfig(dir, 'gateway.yaml', {
    resources: { skills_dir: skillsDir },
    ledger: { sqlite_path: ledger, redact_keys: ['orderId'] },
    governance: {
      default_quota: GENEROUS_QUOTA,
      visibility: {
        allow: ['*'],
        // One folder of a skill, and a whole skill by its files (SKILL.md included).
        deny: ['skill://docs/handbook/refs/*', 'skill://docs/sealed/*'],
      },
      clients: {
        'no-orders': { deny: ['orders_*'] },
        'no-order-skill': { deny: ['skill://orders/*'] },
        limited: { quota: { max_calls_per_minute: LIMITED_PER_MINUTE } },
      },
    },
  });
}

interface LedgerArgsRow {
  method: string;
  target: string;
  arguments: string | null;
  outcome: string;
  error_code: number | null;
  denial_reason: string | null;
}

const ledgerOf = (path: string, clientId: string) => readLedgerRows<LedgerArgsRow>(path, clientId);

describe.each<Kind>(KINDS)('visibility side doors over %s', (kind) => {
  let dir: string;
  let ledgerPath: string;
  let http: ClientGroup | undefined;
  const clients = {} as Record<ClientId, SdkClientHandle>;
  const sdk = (id: ClientId) => clients[id].client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `owlclaw-visibility-${kind}-`));
    const skillsDir = join(dir, 'skills');
    writeSkills(skillsDir);
    ledgerPath = join(dir, 'ledger.db');
    const configPath = writeGatewayConfig(dir, skillsDir, ledgerPath);
    if (kind === 'streamable-http') http = await openClients('http', configPath, []);
    const handles = await connectSdkClients(
      CLIENTS.map((id) =>
        kind === 'stdio'
          ? {
              kind,
              env: {
                MCP_SERVER_CONFIG: configPath,
                MCP_CLIENT_ID: id,
                MCP_SERVER_LEDGER_SQLITE_PATH: ledgerPath,
              },
            }
          : { kind, baseUrl: http!.baseUrl, headers: { 'X-MCP-Client-ID': id } },
      ),
    );
    CLIENTS.forEach((id, i) => (clients[id] = handles[i]));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(Object.values(clients).map((handle) => handle.dispose()));
    await http?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a client denied orders_* neither lists, gets nor completes the prompt that embeds an order', async () => {
    // The tool itself was already refused, as a missing one.
    const tool = await rpcError(
      sdk('no-orders').callTool({ name: 'orders_get', arguments: { orderId: ORDER_ID } }),
    );
    expect(tool.code).toBe(-32001);

    const listed = (await sdk('no-orders').listPrompts()).prompts.map((p) => p.name);
    expect(listed).toContain('plan_restock');
    expect(listed).not.toContain(ORDER_PROMPT);

    const hidden = await rpcError(
      sdk('no-orders').getPrompt({ name: ORDER_PROMPT, arguments: { orderId: ORDER_ID } }),
    );
    const missing = await rpcError(
      sdk('no-orders').getPrompt({ name: 'no_such_prompt', arguments: { orderId: ORDER_ID } }),
    );
    // Indistinguishable from a prompt that does not exist.
    expect(hidden.code).toBe(-32602);
    expect({ code: hidden.code, message: hidden.message, data: hidden.data }).toEqual({
      code: missing.code,
      message: missing.message.replace('no_such_prompt', ORDER_PROMPT),
      // Each request has a trace id of its own; nothing else tells them apart.
      data: {
        ...(missing.data as object),
        prompt: ORDER_PROMPT,
        traceId: (hidden.data as { traceId?: unknown }).traceId,
      },
    });
    expect(JSON.stringify(hidden)).not.toContain(ORDER_EMAIL);

    const completion = await rpcError(
      sdk('no-orders').complete({
        ref: { type: 'ref/prompt', name: ORDER_PROMPT },
        argument: { name: 'tone', value: '' },
      }),
    );
    expect(completion.code).toBe(-32602);
    expect(completion.message).toContain(`Unknown prompt: ${ORDER_PROMPT}`);

    // The same client is still served everything else.
    const restock = await sdk('no-orders').getPrompt({
      name: 'plan_restock',
      arguments: { warehouse: 'west' },
    });
    expect(restock.messages.length).toBeGreaterThan(0);
  });

  test('a client allowed orders_* still lists, gets and completes it', async () => {
    const listed = (await sdk('allowed').listPrompts()).prompts.map((p) => p.name);
    expect(listed).toContain(ORDER_PROMPT);
    const prompt = await sdk('allowed').getPrompt({
      name: ORDER_PROMPT,
      arguments: { orderId: ORDER_ID },
    });
    expect(JSON.stringify(prompt.messages)).toContain(ORDER_EMAIL);
    const tones = await sdk('allowed').complete({
      ref: { type: 'ref/prompt', name: ORDER_PROMPT },
      argument: { name: 'tone', value: '' },
    });
    expect(tones.completion.values).toEqual(['formal', 'friendly']);
  });

  test('prompts/get is rate-limited and ledgered like tools/call, hidden ones included', async () => {
    for (let i = 0; i < LIMITED_PER_MINUTE; i++) {
      await sdk('limited').getPrompt({ name: ORDER_PROMPT, arguments: { orderId: ORDER_ID } });
    }
    const refused = await rpcError(
      sdk('limited').getPrompt({ name: ORDER_PROMPT, arguments: { orderId: ORDER_ID } }),
    );
    expect(refused.code).toBe(-32003);
    expect(refused.data).toMatchObject({ reason: 'rate_limited', retryable: true });
    // Lists are not metered; the gateway and the other clients go on.
    expect((await sdk('limited').listPrompts()).prompts.length).toBeGreaterThan(0);
    await expect(
      sdk('allowed').getPrompt({ name: ORDER_PROMPT, arguments: { orderId: ORDER_ID } }),
    ).resolves.toHaveProperty('messages');

    const rows = ledgerOf(ledgerPath, 'limited');
    expect(rows).toHaveLength(LIMITED_PER_MINUTE + 1);
    for (const row of rows) {
      expect(row).toMatchObject({ method: 'prompts/get', target: ORDER_PROMPT });
      // Arguments are redacted like a tool's (this config redacts orderId).
      expect(JSON.parse(row.arguments ?? 'null')).toEqual({ orderId: REDACTED });
    }
    expect(rows.map((row) => row.outcome)).toEqual([
      ...Array<string>(LIMITED_PER_MINUTE).fill('success'),
      'denied',
    ]);
    expect(rows[LIMITED_PER_MINUTE]).toMatchObject({
      error_code: -32003,
      denial_reason: 'rate_limited',
    });

    // The hidden prompt asked for by the denied client left its row too, as a not-found.
    const hiddenRows = ledgerOf(ledgerPath, 'no-orders').filter(
      (row) => row.method === 'prompts/get' && row.target === ORDER_PROMPT,
    );
    expect(hiddenRows).toEqual([expect.objectContaining({ outcome: 'error', error_code: -32602 })]);
  });

  test("a tool linked to a skill shows the skill's text only to a client that may read the skill", async () => {
    const describe = async (id: ClientId) =>
      (await sdk(id).listTools()).tools.find((t) => t.name === 'orders_place')?.description;
    // Alternating callers: one built list must never be served to the other.
    for (const id of ['allowed', 'no-order-skill', 'allowed', 'no-order-skill'] as const) {
      const description = await describe(id);
      expect(description).toBeDefined();
      if (id === 'allowed') expect(description).toContain(SKILL_TEXT);
      else expect(description).not.toContain(SKILL_TEXT);
    }
    const read = await rpcError(
      sdk('no-order-skill').readResource({ uri: 'skill://orders/place-order' }),
    );
    expect(read.code).toBe(-32002);
  });

  test('a deny rule on skill://docs/handbook/refs/* hides those files everywhere', async () => {
    const client = sdk('allowed');
    for (const uri of [
      'skill://docs/handbook/refs/secret.md',
      'skill://docs/handbook/refs/deep/more.md',
      // Another spelling of the same file.
      'skill://docs/handbook/refs/%73ecret.md',
      'skill://docs/sealed',
      'skill://docs/sealed/SKILL.md',
      'skill://docs/sealed/extra.md',
    ]) {
      const err = await rpcError(client.readResource({ uri }));
      expect({ uri, code: err.code }).toEqual({ uri, code: -32002 });
    }
    const notes = await client.readResource({ uri: 'skill://docs/handbook/notes.md' });
    expect(notes.contents).toHaveLength(1);

    const listed = (await client.listResources()).resources.map((r) => r.uri);
    expect(listed).toContain('skill://docs/handbook');
    expect(listed).not.toContain('skill://docs/sealed');

    const directory = await client.request(
      { method: 'resources/directory/read', params: { uri: 'skill://docs/handbook' } },
      DirectoryRead,
    );
    expect(directory.resources.map((r) => r.name).sort()).toEqual(['SKILL.md', 'notes.md']);
    const refsDir = await rpcError(
      client.request(
        { method: 'resources/directory/read', params: { uri: 'skill://docs/handbook/refs' } },
        DirectoryRead,
      ),
    );
    const noDir = await rpcError(
      client.request(
        { method: 'resources/directory/read', params: { uri: 'skill://docs/handbook/nope' } },
        DirectoryRead,
      ),
    );
    expect(refsDir.code).toBe(noDir.code);
    expect(refsDir.message).toBe(noDir.message.replace('nope', 'refs'));

    const manifest = await client.request(
      { method: 'skills/get', params: { uri: 'skill://docs/handbook/SKILL.md' } },
      SkillsGet,
    );
    expect(manifest.skill.resources.map((r) => r.uri)).toEqual([
      'skill://docs/handbook/SKILL.md',
      'skill://docs/handbook/notes.md',
    ]);
    const skills = await client.request({ method: 'skills/list', params: {} }, SkillsList);
    const handbook = skills.skills.find((s) => s.uri === 'skill://docs/handbook/SKILL.md');
    expect(handbook?.resources.map((r) => r.uri)).toEqual(
      manifest.skill.resources.map((r) => r.uri),
    );
    expect(skills.skills.map((s) => s.uri)).not.toContain('skill://docs/sealed/SKILL.md');
    const sealed = await rpcError(
      client.request(
        { method: 'skills/get', params: { uri: 'skill://docs/sealed/SKILL.md' } },
        SkillsGet,
      ),
    );
    expect(sealed.code).toBe(-32602);

    const paths = await client.complete({
      ref: { type: 'ref/resource', uri: FILE_TEMPLATE },
      argument: { name: 'path', value: '' },
      context: { arguments: { category: 'docs', name: 'handbook' } },
    });
    expect(paths.completion.values).toEqual(['SKILL.md', 'notes.md']);
    const names = await client.complete({
      ref: { type: 'ref/resource', uri: FILE_TEMPLATE },
      argument: { name: 'name', value: '' },
      context: { arguments: { category: 'docs' } },
    });
    expect(names.completion.values).toEqual(['handbook']);
  });

  test.each(['skill://docs/handbook/refs/secret.md', 'skill://docs/sealed'])(
    'subscribing to hidden %s is refused as not found',
    async (uri) => {
      const err = await rpcError(sdk('allowed').subscribeResource({ uri }));
      expect(err.code).toBe(-32002);
    },
  );

  if (kind === 'streamable-http') {
    test('the HTTP skill mirror serves what the client may read and 404s the rest', async () => {
      const get = (path: string, id: ClientId) =>
        fetch(`${http!.baseUrl}/resources/skill/${path}`, { headers: { 'X-MCP-Client-ID': id } });
      const handbook = await get('docs/handbook', 'allowed');
      expect(handbook.status).toBe(200);
      expect(await handbook.text()).toContain('# Handbook');
      const sealed = await get('docs/sealed', 'allowed');
      expect(sealed.status).toBe(404);
      expect(await sealed.text()).not.toContain(SECRET_TEXT);
      expect((await get('orders/place-order', 'no-order-skill')).status).toBe(404);
      expect((await get('orders/place-order', 'allowed')).status).toBe(200);
    });

    test('every hidden target was counted as a not_visible denial', async () => {
      const metrics = await (await fetch(`${http!.baseUrl}/metrics`)).text();
      const line = metrics
        .split('\n')
        .find(
          (l) =>
            l.startsWith('mcp_governance_decisions_total{') &&
            l.includes('decision="deny"') &&
            l.includes('reason="not_visible"'),
        );
      expect(line).toBeDefined();
      expect(Number(line!.split(' ').pop())).toBeGreaterThan(0);
    });
  }
});
