import {
  BlobResourceContents,
  ListResourcesResultSchema,
  ReadResourceResult,
  ReadResourceResultSchema,
  Resource,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  TextResourceContents,
} from '@modelcontextprotocol/sdk/types.js';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { SessionRegistry } from '../../src/session/session.registry';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { connectSdkClient, SdkClientHandle, waitUntil } from '../support/sdk-clients';
import {
  makeTempDir,
  removeDir,
  sha256Digest,
  skillMarkdown,
  writeSkill,
} from '../support/skills-dir';
import { rpcError } from '../support/rpc-error';

/**
 * resources/* through the official MCP SDK client, every scenario written once
 * and run over stdio (the built CLI as a child) and Streamable HTTP (the
 * gateway in this process). Each run gets its own skills directory in a fresh
 * temp dir, built file by file below.
 */

const KINDS = ['stdio', 'streamable-http'] as const;
type Kind = (typeof KINDS)[number];

const PAGE_SIZE = 50;
const MiB = 1024 * 1024;

interface GeneratedSkill {
  category: string;
  name: string;
  uri: string;
  tags: string[];
}

/** 120 generated skills: alpha 60 (two pages on its own), beta 40, gamma 20. */
const GENERATED: GeneratedSkill[] = Object.entries({ alpha: 60, beta: 40, gamma: 20 }).flatMap(
  ([category, count]) =>
    Array.from({ length: count }, (_, i) => {
      const name = `${category}-skill-${String(i).padStart(3, '0')}`;
      const tags = ['bulk', i % 2 === 0 ? 'even' : 'odd', ...(i % 3 === 0 ? ['fizz'] : [])];
      return { category, name, uri: `skill://${category}/${name}`, tags };
    }),
);

const UNICODE_BODY = [
  '# Unicode 🦉',
  '',
  'Emoji: 🦉🚀👩‍👩‍👧 and a flag 🇯🇵; music 𝄞.',
  'CJK: 日本語のテキスト、中文字符、한국어.',
  'Combining: é (e + U+0301), Ω, ß, ﬁ ligature, RTL שלום.',
  'Zero-width: a\u200bb, NBSP:\u00a0:',
].join('\n');

/** Special files whose bytes the reads must reproduce exactly. */
const DOCS: Record<string, string | Buffer> = {
  unicode: skillMarkdown(
    { name: 'unicode', description: 'Emoji 🦉 and CJK 日本語', tags: ['docs'] },
    UNICODE_BODY,
  ),
  crlf: skillMarkdown(
    { name: 'crlf', description: 'Windows line endings', tags: ['docs'] },
    `# CRLF\n\nline one\nline two 日本\n`,
    '\r\n',
  ),
  bom: `\uFEFF${skillMarkdown({ name: 'bom', description: 'Starts with a UTF-8 BOM', tags: ['docs'] }, '# BOM\n\nbody 🦉\n')}`,
  large: largeMarkdown(2 * MiB),
  'café-notes': skillMarkdown(
    { name: 'cafe-notes', description: 'A non-ASCII directory name', tags: ['docs'] },
    '# Café v1\n',
  ),
  watched: skillMarkdown(
    { name: 'watched', description: 'Edited while subscribed', tags: ['docs'] },
    '# v1\n',
  ),
};
const DOC_NAMES = Object.keys(DOCS);
const DOC_URIS = DOC_NAMES.map((name) => `skill://docs/${encodeURIComponent(name)}`);
const ALL_URIS = [...GENERATED.map((s) => s.uri), ...DOC_URIS];

function largeMarkdown(minBytes: number): string {
  const head = skillMarkdown(
    { name: 'large', description: 'About two MiB of mixed text', tags: ['docs'] },
    '# Large\n',
  );
  const parts = [head];
  let size = Buffer.byteLength(head);
  for (let i = 0; size < minBytes; i++) {
    const line = `${i}: 🦉 日本語テキスト — the quick brown fox jumps over the lazy dog.\n`;
    parts.push(line);
    size += Buffer.byteLength(line);
  }
  return parts.join('');
}

function buildSkillsDir(root: string): void {
  for (const skill of GENERATED) {
    writeSkill(root, skill.category, skill.name, {
      'SKILL.md': skillMarkdown(
        { name: skill.name, description: `Generated skill ${skill.name}`, tags: skill.tags },
        `# ${skill.name}\n\nGenerated for the pagination test.\n`,
      ),
    });
  }
  for (const [name, content] of Object.entries(DOCS)) {
    writeSkill(root, 'docs', name, { 'SKILL.md': content });
  }
}

function sorted(values: Iterable<string>): string[] {
  return [...values].sort();
}

describe.each(KINDS)('resources over %s (official SDK client)', (kind: Kind) => {
  let skillsDir: string;
  let gateway: HttpGatewayHandle | undefined;
  let h: SdkClientHandle;
  const updated: string[] = [];
  let listChanged = 0;

  const diskPath = (category: string, name: string, file = 'SKILL.md') =>
    join(skillsDir, category, name, file);

  /** Every page of resources/list with these (extension) params, and how many pages it took. */
  async function listAll(params: Record<string, unknown> = {}) {
    const pages: Resource[][] = [];
    let cursor: string | undefined;
    do {
      const page = await h.client.request(
        { method: 'resources/list', params: cursor === undefined ? params : { ...params, cursor } },
        ListResourcesResultSchema,
      );
      pages.push(page.resources);
      cursor = page.nextCursor;
      if (pages.length > 20) throw new Error('resources/list does not terminate');
    } while (cursor !== undefined);
    return { pages, uris: pages.flat().map((r) => r.uri) };
  }

  function readExtended(params: Record<string, unknown>): Promise<ReadResourceResult> {
    return h.client.request({ method: 'resources/read', params }, ReadResourceResultSchema);
  }

  beforeAll(async () => {
    skillsDir = makeTempDir(`resources-e2e-${kind}`);
    buildSkillsDir(skillsDir);
    if (kind === 'streamable-http') {
      gateway = await startHttpGateway({ config: { resources: { skills_dir: skillsDir } } });
    }
    h = await connectSdkClient({
      kind,
      baseUrl: gateway?.baseUrl,
      env: { MCP_SERVER_SKILLS_DIR: skillsDir },
    });
    h.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    h.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      listChanged++;
    });
    if (gateway) {
      // Notifications outside a request ride the standalone GET stream, opened after initialized.
      const sessions = gateway.app.get(SessionRegistry);
      await waitUntil(
        () => sessions.get(h.serverSessionId ?? '')?.hasStandaloneStream() === true,
        'the standalone GET stream',
      );
    }
  });

  afterAll(async () => {
    await h?.dispose();
    await gateway?.close();
    removeDir(skillsDir);
  });

  test('the server declares subscribable, list-changing resources', () => {
    expect(h.initializeResult.capabilities.resources).toEqual({
      subscribe: true,
      listChanged: true,
    });
  });

  test('listResources follows nextCursor past 50: every skill exactly once', async () => {
    const pages: Resource[][] = [];
    let cursor: string | undefined;
    do {
      const page = await h.client.listResources(cursor === undefined ? {} : { cursor });
      pages.push(page.resources);
      cursor = page.nextCursor;
    } while (cursor !== undefined && pages.length <= 10);

    expect(ALL_URIS).toHaveLength(126);
    expect(pages.map((p) => p.length)).toEqual([PAGE_SIZE, PAGE_SIZE, 26]);
    const uris = pages.flat().map((r) => r.uri);
    expect(new Set(uris).size).toBe(uris.length);
    expect(sorted(uris)).toEqual(sorted(ALL_URIS));

    // Each entry describes its SKILL.md as it is on disk.
    const byUri = new Map(pages.flat().map((r) => [r.uri, r]));
    const sample = byUri.get('skill://beta/beta-skill-007');
    expect(sample).toMatchObject({
      name: 'beta-skill-007',
      description: 'Generated skill beta-skill-007',
      mimeType: 'text/markdown',
      size: readFileSync(diskPath('beta', 'beta-skill-007')).length,
      _meta: {
        'owlclaw/category': 'beta',
        'owlclaw/tags': ['bulk', 'odd'],
        'owlclaw/etag': expect.stringMatching(/^"[0-9a-f]{32}"$/),
      },
    });
    expect(byUri.get('skill://docs/large')?.size).toBe(
      readFileSync(diskPath('docs', 'large')).length,
    );
  });

  test.each([
    ['wildcard skill://beta/*', 'skill://beta/*', 'beta'],
    ['bare name gamma', 'gamma', 'gamma'],
    ['bare name alpha (60: two pages)', 'alpha', 'alpha'],
    ['wildcard skill://docs/*', 'skill://docs/*', 'docs'],
  ])('category filter, %s', async (_label, category, expected) => {
    const { pages, uris } = await listAll({ category });
    const want = ALL_URIS.filter((uri) => uri.startsWith(`skill://${expected}/`));
    expect(want.length).toBeGreaterThan(0);
    expect(sorted(uris)).toEqual(sorted(want));
    expect(new Set(uris).size).toBe(uris.length);
    expect(pages).toHaveLength(Math.ceil(want.length / PAGE_SIZE));
  });

  test('category filter: an unknown category lists nothing; a malformed wildcard is -32602', async () => {
    expect((await listAll({ category: 'no-such-category' })).uris).toEqual([]);
    const err = await rpcError(listAll({ category: 'skill://alpha/alpha-skill-001/*' }));
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/wildcard/);
  });

  test.each<[string, Record<string, unknown>, (s: GeneratedSkill) => boolean]>([
    ['a single tag as a string', { tags: 'odd' }, (s) => s.tags.includes('odd')],
    [
      'several tags (all must match)',
      { tags: ['even', 'fizz'] },
      (s) => s.tags.includes('even') && s.tags.includes('fizz'),
    ],
    [
      'tags within a category',
      { category: 'skill://beta/*', tags: ['odd'] },
      (s) => s.category === 'beta' && s.tags.includes('odd'),
    ],
  ])('tag filter: %s', async (_label, params, matches) => {
    const { uris } = await listAll(params);
    const want = GENERATED.filter(matches).map((s) => s.uri);
    expect(want.length).toBeGreaterThan(0);
    expect(sorted(uris)).toEqual(sorted(want));
  });

  test('tag filter: the docs tag finds exactly the hand-written skills; bad tags are -32602', async () => {
    expect(sorted((await listAll({ tags: ['docs'] })).uris)).toEqual(sorted(DOC_URIS));
    expect((await listAll({ tags: ['docs', 'bulk'] })).uris).toEqual([]);
    const err = await rpcError(listAll({ tags: [1, 2] }));
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/tags/);
  });

  test.each(['unicode', 'crlf', 'bom', 'large'])(
    'readResource returns the exact bytes of the %s file (seed and SKILL.md URIs)',
    async (name) => {
      const disk = readFileSync(diskPath('docs', name));
      for (const uri of [`skill://docs/${name}`, `skill://docs/${name}/SKILL.md`]) {
        const result = await h.client.readResource({ uri });
        expect(result.contents).toHaveLength(1);
        const content = result.contents[0] as TextResourceContents;
        expect(content.uri).toBe(uri);
        expect(content.mimeType).toBe('text/markdown');
        expect(typeof content.text).toBe('string');
        expect(content).not.toHaveProperty('blob');
        const served = Buffer.from(content.text, 'utf8');
        expect(served.length).toBe(disk.length);
        expect(sha256Digest(served)).toBe(sha256Digest(disk));
        expect(served.equals(disk)).toBe(true);
        expect(content._meta?.['owlclaw/size']).toBe(disk.length);
      }
      // The fixtures really are what their names say.
      const expectations: Record<string, () => void> = {
        unicode: () => expect(disk.toString('utf8')).toMatch(/🦉.*日本語/s),
        crlf: () => expect(disk.toString('utf8').split('\r\n').length).toBeGreaterThan(5),
        bom: () => expect(disk.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf])),
        large: () => expect(disk.length).toBeGreaterThanOrEqual(2 * MiB),
      };
      expectations[name]();
    },
  );

  test('range read: the base64 blob decodes to exactly the byte slice [start, end)', async () => {
    const uri = 'skill://docs/unicode';
    const disk = readFileSync(diskPath('docs', 'unicode'));
    const owl = disk.indexOf(Buffer.from('🦉', 'utf8'));
    expect(owl).toBeGreaterThan(0);
    const cases: Array<{ range: { start: number; end?: number }; slice: Buffer }> = [
      { range: { start: 0, end: 10 }, slice: disk.subarray(0, 10) },
      // Cuts the 4-byte owl in half: only a byte-exact blob can carry that.
      { range: { start: owl + 1, end: owl + 3 }, slice: disk.subarray(owl + 1, owl + 3) },
      { range: { start: disk.length - 7 }, slice: disk.subarray(disk.length - 7) },
      { range: { start: 5, end: disk.length + 1000 }, slice: disk.subarray(5) },
    ];
    for (const { range, slice } of cases) {
      const result = await readExtended({ uri, range });
      expect(result.contents).toHaveLength(1);
      const content = result.contents[0] as BlobResourceContents;
      expect(content).not.toHaveProperty('text');
      expect(content.uri).toBe(uri);
      const bytes = Buffer.from(content.blob, 'base64');
      expect(bytes.equals(slice)).toBe(true);
      expect(content._meta?.['owlclaw/range']).toEqual({
        start: range.start,
        end: Math.min(range.end ?? disk.length, disk.length),
      });
    }
    for (const range of [{ start: disk.length }, { start: 4, end: 4 }, { start: -1 }]) {
      const err = await rpcError(readExtended({ uri, range }));
      expect(err.code).toBe(-32602);
      expect(err.message).toMatch(/range/);
    }
  });

  test('not modified: ifNoneMatch with the ETag of a first read returns no contents', async () => {
    const uri = 'skill://docs/crlf';
    const first = await h.client.readResource({ uri });
    const etag = first.contents[0]._meta?.['owlclaw/etag'];
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);

    const again = await readExtended({ uri, ifNoneMatch: etag });
    expect(again.contents).toEqual([]);
    expect(again._meta).toMatchObject({ 'owlclaw/notModified': true, 'owlclaw/etag': etag });

    // A different ETag is a full read again.
    const stale = await readExtended({ uri, ifNoneMatch: '"0123456789abcdef0123456789abcdef"' });
    const content = stale.contents[0] as TextResourceContents;
    expect(Buffer.from(content.text, 'utf8').equals(readFileSync(diskPath('docs', 'crlf')))).toBe(
      true,
    );
    expect(stale._meta?.['owlclaw/notModified']).toBeUndefined();
  });

  test('an unknown resource is McpError -32002; a malformed URI is -32602', async () => {
    for (const uri of ['skill://docs/no-such-skill', 'skill://docs/unicode/missing.md']) {
      const err = await rpcError(h.client.readResource({ uri }));
      expect(err.code).toBe(-32002);
      expect(err.message).toContain(uri);
    }
    const bad = await rpcError(h.client.readResource({ uri: 'skill://docs/../etc' }));
    expect(bad.code).toBe(-32602);
  });

  test('listResourceTemplates names skill://{category}/{name}', async () => {
    const { resourceTemplates } = await h.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('skill://{category}/{name}');
    expect(resourceTemplates.find((t) => t.uriTemplate === 'skill://{category}/{name}')).toEqual(
      expect.objectContaining({ name: 'skill', mimeType: 'text/markdown' }),
    );
  });

  test('subscribeResource, then an edit on disk: notifications/resources/updated for that uri', async () => {
    const uri = 'skill://docs/watched';
    const path = diskPath('docs', 'watched');
    expect(await h.client.subscribeResource({ uri })).toEqual({});
    const before = updated.length;

    const edited = skillMarkdown(
      { name: 'watched', description: 'Edited while subscribed', tags: ['docs'] },
      '# v2 — edited 🦉\n',
    );
    writeFileSync(path, edited);
    await waitUntil(() => updated.slice(before).includes(uri), `updated for ${uri}`, 10_000);
    expect(updated.slice(before).every((u) => u === uri)).toBe(true);

    const reread = await h.client.readResource({ uri });
    const text = (reread.contents[0] as TextResourceContents).text;
    expect(Buffer.from(text, 'utf8').equals(readFileSync(path))).toBe(true);
    expect(text).toContain('v2 — edited 🦉');
  });

  test('unsubscribeResource stops the updates (list_changed still proves the edit was seen)', async () => {
    const uri = 'skill://docs/watched';
    const path = diskPath('docs', 'watched');
    expect(await h.client.unsubscribeResource({ uri })).toEqual({});
    await delay(300); // let any notification of the previous test drain first
    const updatesBefore = updated.length;
    const changesBefore = listChanged;

    writeFileSync(
      path,
      skillMarkdown(
        { name: 'watched', description: 'Edited after unsubscribe', tags: ['docs'] },
        '# v3\n',
      ),
    );
    // The gateway noticed the edit: list_changed goes to every session...
    await waitUntil(() => listChanged > changesBefore, 'list_changed after the edit', 10_000);
    // ...and updated would have been sent in the same breath; give it time anyway.
    await delay(400);
    expect(updated.slice(updatesBefore)).toEqual([]);
    const reread = await h.client.readResource({ uri });
    expect((reread.contents[0] as TextResourceContents).text).toContain('# v3');
  });

  test('a subscription spelled differently (same URI) still gets updates, and unsubscribes', async () => {
    const canonical = 'skill://docs/caf%C3%A9-notes'; // as resources/list spells it
    const typed = 'skill://docs/café-notes'; // the same URI as a person (or an IRI client) writes it
    const lowerHex = 'skill://docs/caf%c3%a9-notes'; // percent-encoding in lower case
    const path = diskPath('docs', 'café-notes');
    expect(DOC_URIS).toContain(canonical);
    const read = await h.client.readResource({ uri: typed });
    expect(
      Buffer.from((read.contents[0] as TextResourceContents).text).equals(readFileSync(path)),
    ).toBe(true);

    expect(await h.client.subscribeResource({ uri: typed })).toEqual({});
    await delay(300);
    const before = updated.length;
    writeFileSync(path, `${DOCS['café-notes'] as string}edited once\n`);
    await waitUntil(() => updated.slice(before).includes(typed), `updated for ${typed}`, 10_000);
    // The notification names the resource as this client subscribed to it.
    expect(updated.slice(before).every((u) => u === typed)).toBe(true);

    expect(await h.client.unsubscribeResource({ uri: lowerHex })).toEqual({});
    await delay(300);
    const afterUnsubscribe = updated.length;
    const changesBefore = listChanged;
    writeFileSync(path, `${DOCS['café-notes'] as string}edited twice\n`);
    await waitUntil(() => listChanged > changesBefore, 'list_changed after the edit', 10_000);
    await delay(400);
    expect(updated.slice(afterUnsubscribe)).toEqual([]);
  });

  test('a new skill directory: list_changed arrives and the next list contains it', async () => {
    const uri = 'skill://gamma/fresh-skill';
    await delay(300);
    const changesBefore = listChanged;
    expect((await listAll({ category: 'gamma' })).uris).not.toContain(uri);

    writeSkill(skillsDir, 'gamma', 'fresh-skill', {
      'SKILL.md': skillMarkdown(
        { name: 'fresh-skill', description: 'Added while connected', tags: ['new'] },
        '# Fresh\n',
      ),
    });
    await waitUntil(() => listChanged > changesBefore, 'list_changed after adding', 10_000);

    const { uris } = await listAll();
    expect(uris).toContain(uri);
    expect(uris).toHaveLength(ALL_URIS.length + 1);
    expect((await listAll({ tags: 'new' })).uris).toEqual([uri]);

    // Removing it is a list change too, and it is gone from the next list.
    const changesAfterAdd = listChanged;
    rmSync(join(skillsDir, 'gamma', 'fresh-skill'), { recursive: true });
    await waitUntil(() => listChanged > changesAfterAdd, 'list_changed after removing', 10_000);
    expect((await listAll()).uris).not.toContain(uri);
    expect((await rpcError(h.client.readResource({ uri }))).code).toBe(-32002);
  });

  test('the client saw no protocol errors', () => {
    expect(h.errors).toEqual([]);
  });
});
