import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CompleteRequest,
  ListPromptsResult,
  McpError,
  Prompt,
} from '@modelcontextprotocol/sdk/types.js';
import { encodeCursor } from '../../src/tools/list-cursor';
import {
  BULK_PROMPT_COUNT,
  bulkPromptName,
  MANY_CODES,
  MEDIA_MESSAGES,
  PROMPT_PNG_BASE64,
} from '../fixtures/prompts-fixture.capability';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import { makeTempDir, removeDir, skillMarkdown, writeSkill } from '../support/skills-dir';
import { errorData, rpcError } from '../support/rpc-error';

/**
 * Prompts (prompts/list, prompts/get) and completion/complete through the
 * official MCP SDK client, each scenario written once and run over stdio (a
 * spawned fixture gateway) and Streamable HTTP (the gateway in this process),
 * both serving the same temporary skills directory.
 */

const KINDS = ['stdio', 'streamable-http'] as const;
type Kind = (typeof KINDS)[number];

const PAGE_SIZE = 50;
const FX_PROMPTS = ['fx_greet', 'fx_echo', 'fx_media', 'fx_travel', 'fx_codes', 'fx_broken'];
const SEED_TEMPLATE = 'skill://{category}/{name}';
const FILE_TEMPLATE = 'skill://{category}/{name}/{+path}';

/** The skills directory both gateways serve: three categories, one name in two of them. */
const SKILLS: Array<{ category: string; name: string; files?: Record<string, string> }> = [
  { category: 'inventory', name: 'reorder-policy', files: { 'references/thresholds.md': '# T\n' } },
  { category: 'inventory', name: 'stock-check' },
  { category: 'orders', name: 'place-order' },
  { category: 'orders', name: 'returns' },
  { category: 'outdoor', name: 'returns' },
];

let skillsDir: string;
let gateway: HttpGatewayHandle;

beforeAll(async () => {
  skillsDir = makeTempDir('prompts-e2e');
  for (const { category, name, files } of SKILLS) {
    const skillMd = skillMarkdown({ name, description: `Skill ${category}/${name}` }, `# ${name}`);
    writeSkill(skillsDir, category, name, { 'SKILL.md': skillMd, ...files });
  }
  gateway = await startHttpGateway({
    fixtures: true,
    config: { resources: { skills_dir: skillsDir } },
  });
});

afterAll(async () => {
  await gateway?.close();
  removeDir(skillsDir);
});

function errorFields(err: McpError): string[] {
  const errors = (errorData(err).errors ?? []) as Array<{ field: string }>;
  return errors.map((e) => e.field).sort();
}

async function listAllPrompts(client: Client): Promise<ListPromptsResult[]> {
  const pages: ListPromptsResult[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listPrompts(cursor === undefined ? undefined : { cursor });
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages.length < 20);
  expect(cursor).toBeUndefined();
  return pages;
}

/** Every prompt entry exactly as it crossed the wire (the SDK's parser drops unknown keys). */
function rawListedPrompts(h: SdkClientHandle): Array<Record<string, unknown>> {
  return h.wire.received.flatMap((message) => {
    const result = 'result' in message ? (message.result as { prompts?: unknown }) : undefined;
    return Array.isArray(result?.prompts) ? (result.prompts as Array<Record<string, unknown>>) : [];
  });
}

describe.each(KINDS)('prompts and completion over %s (official SDK client)', (kind: Kind) => {
  let h: SdkClientHandle;

  const complete = (params: CompleteRequest['params']) => h.client.complete(params);
  const completePrompt = (
    name: string,
    argument: string,
    value: string,
    context?: Record<string, string>,
  ) =>
    complete({
      ref: { type: 'ref/prompt', name },
      argument: { name: argument, value },
      ...(context ? { context: { arguments: context } } : {}),
    });
  const completeTemplate = (
    uri: string,
    argument: string,
    value: string,
    context?: Record<string, string>,
  ) =>
    complete({
      ref: { type: 'ref/resource', uri },
      argument: { name: argument, value },
      ...(context ? { context: { arguments: context } } : {}),
    });

  beforeAll(async () => {
    h = await connectSdkClient({
      kind,
      baseUrl: gateway.baseUrl,
      fixtures: true,
      env: { MCP_SERVER_SKILLS_DIR: skillsDir },
    });
  });

  afterAll(async () => {
    await h?.dispose();
  });

  test('the server declares prompts (no listChanged) and completions', () => {
    const capabilities = h.client.getServerCapabilities();
    expect(capabilities?.prompts).toEqual({ listChanged: false });
    expect(capabilities?.completions).toEqual({});
  });

  test('prompts/list pages by 50: every prompt once, completers never on the wire', async () => {
    const pages = await listAllPrompts(h.client);
    const prompts: Prompt[] = pages.flatMap((page) => page.prompts);
    const names = prompts.map((p) => p.name);

    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[0]?.prompts).toHaveLength(PAGE_SIZE);
    for (const page of pages) expect(page.prompts.length).toBeLessThanOrEqual(PAGE_SIZE);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        ...FX_PROMPTS,
        ...Array.from({ length: BULK_PROMPT_COUNT }, (_, i) => bulkPromptName(i)),
      ]),
    );

    const raw = rawListedPrompts(h);
    expect(raw.length).toBeGreaterThanOrEqual(names.length);
    expect(raw.find((p) => p.name === 'fx_greet')).toEqual({
      name: 'fx_greet',
      title: 'Greet someone',
      description: 'Writes a greeting.',
      arguments: [
        { name: 'name', title: 'Name', description: 'Who to greet', required: true },
        { name: 'style', description: 'How to greet', required: false },
      ],
    });
    expect(raw.find((p) => p.name === 'fx_media')).toEqual({
      name: 'fx_media',
      description: 'Returns every content block type.',
    });
    // Only the MCP fields are published; the completers stay on the server.
    for (const prompt of raw) {
      expect(['name', 'title', 'description', 'arguments']).toEqual(
        expect.arrayContaining(Object.keys(prompt)),
      );
      for (const argument of (prompt.arguments ?? []) as Array<Record<string, unknown>>) {
        expect(['name', 'title', 'description', 'required']).toEqual(
          expect.arrayContaining(Object.keys(argument)),
        );
      }
    }
  });

  test('a bad cursor is -32602', async () => {
    for (const cursor of ['not-a-cursor', encodeCursor(1_000_000)]) {
      const err = await rpcError(h.client.listPrompts({ cursor }));
      expect({ cursor, code: err.code }).toEqual({ cursor, code: -32602 });
    }
  });

  test('prompts/get renders with the arguments given (optional ones may be left out)', async () => {
    await expect(
      h.client.getPrompt({ name: 'fx_greet', arguments: { name: 'Ada', style: 'formal' } }),
    ).resolves.toEqual({
      description: 'Writes a greeting.',
      messages: [{ role: 'user', content: { type: 'text', text: 'Greet Ada in a formal style.' } }],
    });
    const plain = await h.client.getPrompt({ name: 'fx_greet', arguments: { name: 'Alan' } });
    expect(plain.messages[0]?.content).toEqual({
      type: 'text',
      text: 'Greet Alan in a plain style.',
    });
  });

  test('arguments arrive exactly as sent, with the caller and the returned description', async () => {
    const args = { a: '', b: 'ünïcødé 🎒 "quoted"\nnext line' };
    const result = await h.client.getPrompt({ name: 'fx_echo', arguments: args });
    expect(result.description).toBe('echo of the arguments');
    const [message] = result.messages;
    if (message?.content.type !== 'text') throw new Error(`unexpected ${JSON.stringify(result)}`);
    const echoed = JSON.parse(message.content.text) as { args: unknown; clientId: unknown };
    expect(echoed.args).toEqual(args);
    expect(typeof echoed.clientId).toBe('string');
    expect(echoed.clientId).not.toBe('');

    // No arguments at all is fine when none is required.
    await expect(h.client.getPrompt({ name: 'fx_echo' })).resolves.toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: expect.stringContaining('{}') } }],
    });
  });

  test('image, audio, embedded resources and links come through unchanged', async () => {
    const result = await h.client.getPrompt({ name: 'fx_media' });
    expect(result).toEqual({ description: 'media attachments', messages: MEDIA_MESSAGES });
    expect(result.messages[1]?.content).toEqual({
      type: 'image',
      data: PROMPT_PNG_BASE64,
      mimeType: 'image/png',
    });
    expect(result.messages[3]?.content).toEqual({
      type: 'resource',
      resource: { uri: 'fixture://notes/1', mimeType: 'text/plain', text: 'an embedded note' },
    });
    expect(result.messages[6]?.role).toBe('assistant');
  });

  test('an unknown prompt is -32602 naming it', async () => {
    const err = await rpcError(h.client.getPrompt({ name: 'fx_nope' }));
    expect(err.code).toBe(-32602);
    expect(err.message).toContain('Unknown prompt: fx_nope');
    expect(errorData(err)).toMatchObject({ prompt: 'fx_nope' });
  });

  test.each<[string, Record<string, unknown>, string[], string[]]>([
    [
      'a missing required argument',
      { style: 'formal' },
      ['name'],
      ['required argument is missing'],
    ],
    [
      'an unknown argument',
      { name: 'Ada', colour: 'red' },
      ['colour'],
      ['colour: unknown argument'],
    ],
    ['a non-string value', { name: 42 }, ['name'], ['name: must be a string, got number']],
    [
      'several problems at once',
      { style: false, mood: 'happy' },
      ['mood', 'name', 'style'],
      ['mood: unknown argument', 'name: required', 'style: must be a string, got boolean'],
    ],
  ])('%s is -32602 naming the argument(s)', async (_what, args, fields, phrases) => {
    const err = await rpcError(
      h.client.getPrompt({ name: 'fx_greet', arguments: args as Record<string, string> }),
    );
    expect(err.code).toBe(-32602);
    expect(errorFields(err)).toEqual(fields);
    for (const phrase of phrases) expect(err.message).toContain(phrase);
  });

  test('a prompt returning a malformed message is an internal error with an incident id', async () => {
    const err = await rpcError(h.client.getPrompt({ name: 'fx_broken' }));
    expect(err.code).toBe(-32603);
    expect(err.message).toMatch(/Internal error \(incident [0-9a-f-]{36}\)/);
    expect(err.message).not.toContain('system');
  });

  describe('completion/complete for prompt arguments', () => {
    test('a fixed list, filtered by a case-insensitive prefix', async () => {
      await expect(completePrompt('fx_greet', 'style', 'F')).resolves.toEqual({
        completion: { values: ['formal'], total: 1, hasMore: false },
      });
      await expect(completePrompt('fx_greet', 'style', '')).resolves.toEqual({
        completion: { values: ['formal', 'casual', 'pirate'], total: 3, hasMore: false },
      });
      await expect(completePrompt('fx_greet', 'style', 'x')).resolves.toEqual({
        completion: { values: [], total: 0, hasMore: false },
      });
    });

    test('a completer function, given the typed value', async () => {
      // fx_greet's completer adds `${prefix}son`; the gateway still filters by the prefix.
      await expect(completePrompt('fx_greet', 'name', 'a')).resolves.toEqual({
        completion: { values: ['Ada', 'Alan', 'ason'], total: 3, hasMore: false },
      });
    });

    test('an async completer, given the arguments already filled in', async () => {
      await expect(
        completePrompt('fx_travel', 'city', 'l', { country: 'France' }),
      ).resolves.toEqual({ completion: { values: ['Lyon', 'Lille'], total: 2, hasMore: false } });
      await expect(completePrompt('fx_travel', 'city', 'L')).resolves.toEqual({
        completion: { values: ['Lyon', 'Lille', 'Leipzig'], total: 3, hasMore: false },
      });
      await expect(completePrompt('fx_travel', 'notes', '')).resolves.toEqual({
        completion: { values: [], total: 0, hasMore: false },
      });
    });

    test('at most 100 values, with the total and hasMore', async () => {
      const all = await completePrompt('fx_codes', 'code', '');
      expect(all.completion.values).toEqual(MANY_CODES.slice(0, 100));
      expect(all.completion).toMatchObject({ total: 150, hasMore: true });

      await expect(completePrompt('fx_codes', 'code', 'code-14')).resolves.toEqual({
        completion: {
          values: MANY_CODES.filter((code) => code.startsWith('CODE-14')),
          total: 10,
          hasMore: false,
        },
      });
    });

    test('an unknown prompt or argument is -32602', async () => {
      const unknownPrompt = await rpcError(completePrompt('fx_nope', 'style', ''));
      expect(unknownPrompt.code).toBe(-32602);
      expect(unknownPrompt.message).toContain('Unknown prompt: fx_nope');

      const unknownArgument = await rpcError(completePrompt('fx_greet', 'colour', ''));
      expect(unknownArgument.code).toBe(-32602);
      expect(unknownArgument.message).toContain('Unknown argument "colour" of prompt fx_greet');
      expect(errorData(unknownArgument)).toMatchObject({ arguments: ['name', 'style'] });
    });
  });

  describe('completion/complete for the skill templates', () => {
    test('category: the categories of the skills directory', async () => {
      await expect(completeTemplate(SEED_TEMPLATE, 'category', '')).resolves.toEqual({
        completion: { values: ['inventory', 'orders', 'outdoor'], total: 3, hasMore: false },
      });
      await expect(completeTemplate(FILE_TEMPLATE, 'category', 'O')).resolves.toEqual({
        completion: { values: ['orders', 'outdoor'], total: 2, hasMore: false },
      });
    });

    test('name: skill names, restricted to context.category when given', async () => {
      await expect(
        completeTemplate(SEED_TEMPLATE, 'name', 're', { category: 'inventory' }),
      ).resolves.toEqual({
        completion: { values: ['reorder-policy'], total: 1, hasMore: false },
      });
      await expect(
        completeTemplate(SEED_TEMPLATE, 'name', '', { category: 'orders' }),
      ).resolves.toEqual({
        completion: { values: ['place-order', 'returns'], total: 2, hasMore: false },
      });
      // Without a category, every name once (returns exists in two categories).
      await expect(completeTemplate(FILE_TEMPLATE, 'name', 'RE')).resolves.toEqual({
        completion: { values: ['reorder-policy', 'returns'], total: 2, hasMore: false },
      });
    });

    test('path: the files of the skill named by the context', async () => {
      await expect(
        completeTemplate(FILE_TEMPLATE, 'path', '', {
          category: 'inventory',
          name: 'reorder-policy',
        }),
      ).resolves.toEqual({
        completion: {
          values: ['SKILL.md', 'references/thresholds.md'],
          total: 2,
          hasMore: false,
        },
      });
    });

    test('every template resources/templates/list announces can be completed', async () => {
      const { resourceTemplates } = await h.client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(
        [SEED_TEMPLATE, FILE_TEMPLATE].sort(),
      );
      for (const template of resourceTemplates) {
        const answer = await completeTemplate(template.uriTemplate, 'category', 'inv');
        expect({ template: template.uriTemplate, values: answer.completion.values }).toEqual({
          template: template.uriTemplate,
          values: ['inventory'],
        });
      }
    });

    test('an unknown template or variable, or a malformed ref, is -32602', async () => {
      const unknownTemplate = await rpcError(completeTemplate('file:///{path}', 'path', ''));
      expect(unknownTemplate.code).toBe(-32602);
      expect(unknownTemplate.message).toContain('Unknown resource template: file:///{path}');

      const unknownVariable = await rpcError(completeTemplate(SEED_TEMPLATE, 'path', ''));
      expect(unknownVariable.code).toBe(-32602);
      expect(unknownVariable.message).toContain('Unknown argument "path"');

      const badRef = await rpcError(
        complete({
          ref: { type: 'ref/tool', name: 'x' },
          argument: { name: 'a', value: '' },
        } as unknown as CompleteRequest['params']),
      );
      expect(badRef.code).toBe(-32602);
      expect(errorData(badRef)).toMatchObject({ field: 'ref.type' });
    });
  });
});
