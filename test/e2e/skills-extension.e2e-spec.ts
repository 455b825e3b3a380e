import { Logger } from '@nestjs/common';
import { BlobResourceContents, TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import matter from 'gray-matter';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { SkillCatalog } from '../../src/resources/skill-catalog';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { connectSdkClient, SdkClientHandle, waitUntil } from '../support/sdk-clients';
import {
  binaryBytes,
  listFilesRecursively,
  makeTempDir,
  removeDir,
  sha256Digest,
  skillMarkdown,
  writeFileDeep,
  writeSkill,
} from '../support/skills-dir';
import { rpcError } from '../support/rpc-error';

/**
 * The Skills extension (SEP-2640: skills/list, skills/get,
 * resources/directory/read) through the official SDK client's generic
 * `client.request`, over stdio and Streamable HTTP. Every manifest is checked
 * against the files on disk: digests and sizes are recomputed here from the
 * raw bytes, front matter is parsed here with gray-matter.
 */

const KINDS = ['stdio', 'streamable-http'] as const;
type Kind = (typeof KINDS)[number];

const EXTENSION = 'io.modelcontextprotocol/skills';
const LEFT_OUT = 'left out of skills/list';

// Passthrough schemas (zod 4 spells `.passthrough()` as looseObject): unknown fields are kept.
const SkillResourceSchema = z.looseObject({
  uri: z.string(),
  digest: z.string(),
  size: z.number(),
});
const SkillEntrySchema = z.looseObject({
  uri: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  resources: z.array(SkillResourceSchema),
});
type SkillEntry = z.infer<typeof SkillEntrySchema>;
const CacheHints = { ttlMs: z.number(), cacheScope: z.string() };
const SkillsListSchema = z.looseObject({
  resultType: z.literal('complete'),
  skills: z.array(SkillEntrySchema),
  nextCursor: z.string().optional(),
  ...CacheHints,
});
const SkillsGetSchema = z.looseObject({
  resultType: z.literal('complete'),
  skill: SkillEntrySchema,
  ...CacheHints,
});
const DirectorySchema = z.looseObject({
  resultType: z.literal('complete'),
  resources: z.array(
    z.looseObject({
      uri: z.string(),
      name: z.string(),
      mimeType: z.string().optional(),
      size: z.number().optional(),
    }),
  ),
  nextCursor: z.string().optional(),
});
const AnyResult = z.looseObject({});

const CODE_REVIEW_SKILL_MD = [
  '---',
  'name: code-review',
  'description: Review a change the way this team does',
  'license: Apache-2.0',
  'allowed-tools: Read Grep',
  'metadata:',
  '  version: "1.2"',
  '  owners: [ada, grace]',
  '  io.modelcontextprotocol/example: kept as written',
  'created: 2024-01-02',
  'priority: 3',
  'experimental: false',
  'empty:',
  'tags: [eng, review]',
  '---',
  '# Code review',
  '',
  'Read `references/guide.md` first, then run `scripts/check.sh`.',
  '',
].join('\n');

/** category/name -> files. Published skills first, then the ones skills/list must leave out. */
const SKILLS: Record<string, Record<string, string | Buffer>> = {
  'eng/code-review': {
    'SKILL.md': CODE_REVIEW_SKILL_MD,
    'references/guide.md': '# Guide\n\nStep 1 🦉, step 2 日本語.\r\nCRLF line.\r\n',
    'references/deep/nested.md': '# Nested\n\nDeep inside.\n',
    'scripts/check.sh': '#!/bin/sh\necho "checking"\n',
    'assets/logo.bin': binaryBytes(4096),
    'templates/empty.txt': '',
    'docs with space/ünïcödé 100%.md': '# Awkward path\n',
  },
  'eng/release-notes': {
    'SKILL.md': skillMarkdown(
      { name: 'release-notes', description: 'Write release notes' },
      '# Release notes\n',
    ),
    'templates/notes.md': '## {{version}}\n',
  },
  'ops/incident-response': {
    'SKILL.md': skillMarkdown(
      { name: 'incident-response', description: 'Handle an incident', tags: ['ops'] },
      '# Incidents\n',
    ),
    'references/runbook.md': '# Runbook\n',
  },
  'ops/editable': {
    'SKILL.md': skillMarkdown({ name: 'editable', description: 'Edited by the tests' }, '# E\n'),
    'references/data.md': 'version 1\n',
    'notes/remove-me.md': 'to be deleted\n',
  },
  'ops/turncoat': {
    'SKILL.md': skillMarkdown({ name: 'turncoat', description: 'Renamed by a test' }, '# T\n'),
  },
  'ops/vanishing': {
    'SKILL.md': skillMarkdown({ name: 'vanishing', description: 'Deleted by a test' }, '# V\n'),
    'references/left-behind.md': 'stays on disk\n',
  },
  // Linux allows any byte but '/' and NUL in a file name; these two cannot be skill:// segments.
  'ops/odd-names': {
    'SKILL.md': skillMarkdown({ name: 'odd-names', description: 'Unservable names' }, '# O\n'),
    'fine.md': 'served\n',
    'back\\slash.md': 'a backslash in the name\n',
    'tab\there.md': 'a TAB in the name\n',
    'ctl\u0001dir/inner.md': 'under a directory with a control character\n',
  },
  'ops/wrong-name': {
    'SKILL.md': skillMarkdown({ name: 'other-name', description: 'Name differs' }, '# Wrong\n'),
  },
  'ops/BadCase': {
    'SKILL.md': skillMarkdown({ name: 'BadCase', description: 'Upper-case name' }, '# Bad\n'),
  },
  'ops/broken-yaml': {
    'SKILL.md': '---\nname: broken-yaml\ndescription: [unclosed\n  - : :\n---\n# Still readable\n',
  },
};
const PUBLISHED = [
  'eng/code-review',
  'eng/release-notes',
  'ops/incident-response',
  'ops/editable',
  'ops/turncoat',
  'ops/vanishing',
  'ops/odd-names',
];

/**
 * Whether a name on disk can be a skill:// segment at all: a backslash or a control character
 * never can (the URI parser refuses them, whatever the encoding), so such files are not served.
 */
// eslint-disable-next-line no-control-regex -- control characters are what is being excluded
const servableName = (name: string) => !/[\\\u0000-\u001f\u007f]/.test(name);

const skillMdUri = (key: string) => `skill://${key}/SKILL.md`;
/** The URI of a file, each segment percent-encoded (written here, not taken from the gateway). */
const fileUri = (key: string, relPath: string) =>
  `skill://${key}/${relPath.split('/').map(encodeURIComponent).join('/')}`;

describe.each(KINDS)('Skills extension over %s', (kind: Kind) => {
  let skillsDir: string;
  let gateway: HttpGatewayHandle | undefined;
  let h: SdkClientHandle;
  let warnSpy: jest.SpyInstance | undefined;

  const skillDir = (key: string) => join(skillsDir, ...key.split('/'));

  /** The entry the disk says a skill has: front matter and every file, hashed here. */
  function expectedEntry(key: string): SkillEntry {
    const dir = skillDir(key);
    const text = readFileSync(join(dir, 'SKILL.md'), 'utf8');
    // The entry crosses the wire as JSON, so the comparison is with gray-matter's parse in JSON
    // form: identical for every YAML value except dates, which become ISO strings.
    const frontmatter = JSON.parse(JSON.stringify(matter(text, {}).data)) as Record<
      string,
      unknown
    >;
    const servable = listFilesRecursively(dir).filter((rel) => rel.split('/').every(servableName));
    const resources = servable.map((relPath) => {
      const bytes = readFileSync(join(dir, relPath));
      return { uri: fileUri(key, relPath), digest: sha256Digest(bytes), size: bytes.length };
    });
    return { uri: skillMdUri(key), frontmatter, resources };
  }

  function expectEntryMatchesDisk(entry: SkillEntry, key: string): void {
    const want = expectedEntry(key);
    expect(entry.uri).toBe(want.uri);
    expect(entry.frontmatter).toEqual(want.frontmatter);
    const uris = entry.resources.map((r) => r.uri);
    expect(new Set(uris).size).toBe(uris.length); // each file exactly once
    const byUri = (a: { uri: string }, b: { uri: string }) => (a.uri < b.uri ? -1 : 1);
    expect([...entry.resources].sort(byUri)).toEqual([...want.resources].sort(byUri));
    for (const r of entry.resources) expect(r.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  }

  const skillsList = (params: Record<string, unknown> = {}) =>
    h.client.request({ method: 'skills/list', params }, SkillsListSchema);
  const skillsGet = (uri: string) =>
    h.client.request({ method: 'skills/get', params: { uri } }, SkillsGetSchema);
  const readDirectory = (uri: string) =>
    h.client.request({ method: 'resources/directory/read', params: { uri } }, DirectorySchema);

  /** The gateway's structured log records (warnings and up) so far. */
  function logRecords(): Array<Record<string, unknown>> {
    if (h.stdio) {
      return h.stdio
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    }
    return (warnSpy?.mock.calls ?? [])
      .map((call: unknown[]) => call[0])
      .filter(
        (first): first is Record<string, unknown> => typeof first === 'object' && first !== null,
      );
  }

  /** Log records saying a skill was left out of skills/list. */
  const exclusionsOf = (uri: string) =>
    logRecords().filter((r) => r.uri === uri && String(r.msg).includes(LEFT_OUT));

  async function bytesOf(uri: string): Promise<Buffer> {
    const { contents } = await h.client.readResource({ uri });
    expect(contents).toHaveLength(1);
    const content = contents[0];
    return 'text' in content
      ? Buffer.from(content.text, 'utf8')
      : Buffer.from(content.blob, 'base64');
  }

  beforeAll(async () => {
    skillsDir = makeTempDir(`skills-ext-${kind}`);
    for (const [key, files] of Object.entries(SKILLS)) {
      const [category, name] = key.split('/');
      writeSkill(skillsDir, category, name, files);
    }
    if (kind === 'streamable-http') {
      // The in-process gateway runs with Nest logging off; its warnings are observed here instead.
      warnSpy = jest.spyOn(Logger.prototype, 'warn');
      gateway = await startHttpGateway({ config: { resources: { skills_dir: skillsDir } } });
    }
    h = await connectSdkClient({
      kind,
      baseUrl: gateway?.baseUrl,
      env: { MCP_SERVER_SKILLS_DIR: skillsDir },
    });
  });

  afterAll(async () => {
    await h?.dispose();
    await gateway?.close();
    warnSpy?.mockRestore();
    removeDir(skillsDir);
  });

  test(`capabilities.extensions['${EXTENSION}'].directoryRead is true`, () => {
    expect(h.initializeResult.capabilities.extensions?.[EXTENSION]).toEqual({
      directoryRead: true,
    });
    const declared = h.client.getServerCapabilities()?.extensions?.[EXTENSION] as
      { directoryRead?: unknown } | undefined;
    expect(declared?.directoryRead).toBe(true);
    expect(h.initializeResult.capabilities.resources).toBeDefined();
  });

  test('skills/list: exactly the publishable skills, each entry equal to the disk', async () => {
    const result = await skillsList();
    expect(result.resultType).toBe('complete');
    expect(result.ttlMs).toBeGreaterThan(0);
    expect(typeof result.cacheScope).toBe('string');
    expect(result.nextCursor).toBeUndefined();
    expect(result.skills.map((s) => s.uri).sort()).toEqual(PUBLISHED.map(skillMdUri).sort());
    for (const key of PUBLISHED) {
      const entry = result.skills.find((s) => s.uri === skillMdUri(key));
      expectEntryMatchesDisk(entry!, key);
    }
  });

  test('skills/list: the rich front matter passes through verbatim and the manifest is complete', async () => {
    const { skills } = await skillsList();
    const entry = skills.find((s) => s.uri === skillMdUri('eng/code-review'))!;
    expect(entry.frontmatter).toEqual({
      name: 'code-review',
      description: 'Review a change the way this team does',
      license: 'Apache-2.0',
      'allowed-tools': 'Read Grep',
      metadata: {
        version: '1.2',
        owners: ['ada', 'grace'],
        'io.modelcontextprotocol/example': 'kept as written',
      },
      created: '2024-01-02T00:00:00.000Z',
      priority: 3,
      experimental: false,
      empty: null,
      tags: ['eng', 'review'],
    });
    // Seven files on disk, including the nested reference and the empty one, each listed once.
    expect(entry.resources.map((r) => r.uri).sort()).toEqual(
      [
        'skill://eng/code-review/SKILL.md',
        'skill://eng/code-review/assets/logo.bin',
        'skill://eng/code-review/docs%20with%20space/%C3%BCn%C3%AFc%C3%B6d%C3%A9%20100%25.md',
        'skill://eng/code-review/references/deep/nested.md',
        'skill://eng/code-review/references/guide.md',
        'skill://eng/code-review/scripts/check.sh',
        'skill://eng/code-review/templates/empty.txt',
      ].sort(),
    );
    const empty = entry.resources.find((r) => r.uri.endsWith('/templates/empty.txt'));
    expect(empty).toEqual({
      uri: 'skill://eng/code-review/templates/empty.txt',
      size: 0,
      digest: 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    });
  });

  test.each(PUBLISHED)('skills/get %s: the entry equals the disk', async (key) => {
    const result = await skillsGet(skillMdUri(key));
    expect(result.resultType).toBe('complete');
    expect(result.ttlMs).toBeGreaterThan(0);
    expect(typeof result.cacheScope).toBe('string');
    expect(result).not.toHaveProperty('nextCursor');
    expectEntryMatchesDisk(result.skill, key);
  });

  test('every file of a manifest reads byte for byte via resources/read of its URI', async () => {
    const { skill } = await skillsGet(skillMdUri('eng/code-review'));
    for (const resource of skill.resources) {
      const bytes = await bytesOf(resource.uri);
      expect(bytes.length).toBe(resource.size);
      expect(sha256Digest(bytes)).toBe(resource.digest);
    }
    // Text and binary files come back in their own form.
    const guide = await h.client.readResource({
      uri: 'skill://eng/code-review/references/guide.md',
    });
    expect(guide.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    expect((guide.contents[0] as TextResourceContents).text).toBe(
      readFileSync(join(skillDir('eng/code-review'), 'references/guide.md'), 'utf8'),
    );
    const logo = await h.client.readResource({ uri: 'skill://eng/code-review/assets/logo.bin' });
    expect(logo.contents[0]).not.toHaveProperty('text');
    expect(logo.contents[0]).toMatchObject({ mimeType: 'application/octet-stream' });
    expect(
      Buffer.from((logo.contents[0] as BlobResourceContents).blob, 'base64').equals(
        readFileSync(join(skillDir('eng/code-review'), 'assets/logo.bin')),
      ),
    ).toBe(true);
  });

  test('a file whose name cannot be a skill:// segment is not in the manifest; all listed files read', async () => {
    const key = 'ops/odd-names';
    // The files really are on disk...
    expect(listFilesRecursively(skillDir(key))).toEqual(
      ['SKILL.md', 'back\\slash.md', 'ctl\u0001dir/inner.md', 'fine.md', 'tab\there.md'].sort(),
    );
    // ...but a manifest may only promise what resources/read will serve.
    const { skill } = await skillsGet(skillMdUri(key));
    expect(skill.resources.map((r) => r.uri).sort()).toEqual([
      'skill://ops/odd-names/SKILL.md',
      'skill://ops/odd-names/fine.md',
    ]);
    const { skills } = await skillsList();
    for (const entry of skills) {
      for (const resource of entry.resources) {
        const bytes = await bytesOf(resource.uri);
        expect(sha256Digest(bytes)).toBe(resource.digest);
      }
    }
    const root = await readDirectory(`skill://${key}`);
    expect(root.resources.map((r) => r.name).sort()).toEqual(['SKILL.md', 'fine.md']);
    // Left out with a warning naming each file, not silently.
    await waitUntil(
      () => logRecords().some((r) => String(r.path).endsWith('tab\there.md')),
      'a warning about the unservable names',
    );
    const skipped = logRecords()
      .filter((r) => String(r.problem).includes('no skill:// URI can name it'))
      .map((r) => String(r.path).slice(skillDir(key).length + 1));
    expect(skipped).toEqual(
      expect.arrayContaining(['back\\slash.md', 'tab\there.md', 'ctl\u0001dir']),
    );
  });

  test.each([
    ['the skill root', ''],
    ['a subdirectory', 'references'],
    ['a nested subdirectory', 'references/deep'],
    ['a directory with awkward characters', 'docs with space'],
  ])('resources/directory/read of %s lists its direct children', async (_label, relDir) => {
    const key = 'eng/code-review';
    const uri = relDir === '' ? `skill://${key}` : fileUri(key, relDir);
    const result = await readDirectory(uri);
    expect(result.resultType).toBe('complete');

    const dir = join(skillDir(key), relDir);
    const expected = readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      return entry.isDirectory()
        ? { uri: fileUri(key, rel), name: entry.name, mimeType: 'inode/directory' }
        : { uri: fileUri(key, rel), name: entry.name, size: statSync(join(dir, entry.name)).size };
    });
    const byUri = (a: { uri: string }, b: { uri: string }) => (a.uri < b.uri ? -1 : 1);
    const served = [...result.resources].sort(byUri);
    expect(served.map((r) => r.uri)).toEqual(expected.sort(byUri).map((e) => e.uri));
    for (const want of expected) {
      const got = served.find((r) => r.uri === want.uri)!;
      expect(got).toMatchObject(want);
      if (!('mimeType' in want)) expect(got.mimeType).not.toBe('inode/directory');
    }
  });

  test('resources/directory/read: a file or a missing directory is -32602', async () => {
    for (const uri of [
      'skill://eng/code-review/SKILL.md',
      'skill://eng/code-review/no-such-dir',
      'skill://eng/no-such-skill',
    ]) {
      const err = await rpcError(readDirectory(uri));
      expect(err.code).toBe(-32602);
      expect(err.message).toContain('is not a directory resource');
    }
  });

  test('a file added to a skill appears in its manifest (via the watcher)', async () => {
    const key = 'ops/editable';
    writeFileDeep(join(skillDir(key), 'references/added.md'), '# Added later\n');
    const uri = 'skill://ops/editable/references/added.md';
    // A new file leaves every existing file's stat unchanged, so it is the watcher (debounced)
    // that brings it in: poll skills/get until it does.
    let latest: SkillEntry | undefined;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      latest = (await skillsGet(skillMdUri(key))).skill;
      if (latest.resources.some((r) => r.uri === uri)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expectEntryMatchesDisk(latest!, key);
    expect(latest!.resources.map((r) => r.uri)).toContain(uri);
  });

  test('an edit changes the digest in the very next skills/get (no wait for the watcher)', async () => {
    const key = 'ops/editable';
    if (gateway) {
      // In this process the watcher can be switched off: whatever changes below must then come
      // from the freshness re-check that skills/get and skills/list make before answering.
      // (Over stdio the requests simply follow each write at once, well inside the debounce.)
      gateway.app.get(SkillCatalog).onModuleDestroy();
    }
    const dataUri = 'skill://ops/editable/references/data.md';
    const before = (await skillsGet(skillMdUri(key))).skill;
    const oldDigest = before.resources.find((r) => r.uri === dataUri)?.digest;
    expect(oldDigest).toBe(sha256Digest(Buffer.from('version 1\n')));

    // Same size, different bytes: only the content (and mtime) differ.
    writeFileSync(join(skillDir(key), 'references/data.md'), 'version 2\n');
    const after = (await skillsGet(skillMdUri(key))).skill;
    expect(after.resources.find((r) => r.uri === dataUri)).toEqual({
      uri: dataUri,
      digest: sha256Digest(Buffer.from('version 2\n')),
      size: 10,
    });
    expectEntryMatchesDisk(after, key);

    // A longer edit of SKILL.md itself, read back through skills/list at once.
    const skillMd = skillMarkdown(
      { name: 'editable', description: 'Edited again, now longer' },
      '# E2\n',
    );
    writeFileSync(join(skillDir(key), 'SKILL.md'), skillMd);
    const listed = (await skillsList()).skills.find((s) => s.uri === skillMdUri(key))!;
    expect(listed.frontmatter.description).toBe('Edited again, now longer');
    expectEntryMatchesDisk(listed, key);

    // A deleted file leaves the manifest at once too.
    rmSync(join(skillDir(key), 'notes/remove-me.md'));
    const pruned = (await skillsGet(skillMdUri(key))).skill;
    expect(pruned.resources.map((r) => r.uri)).not.toContain(
      'skill://ops/editable/notes/remove-me.md',
    );
    expectEntryMatchesDisk(pruned, key);
  });

  test('a skill edited to break the rules is withdrawn at once, and served again once fixed', async () => {
    // Over HTTP the watcher is already off (previous test): only the freshness re-check can act.
    const key = 'ops/turncoat';
    const path = join(skillDir(key), 'SKILL.md');
    writeFileSync(path, skillMarkdown({ name: 'someone-else', description: 'Renamed' }, '# T\n'));
    const err = await rpcError(skillsGet(skillMdUri(key)));
    expect(err.code).toBe(-32602);
    expect((err.data as { reason?: unknown }).reason).toMatch(
      /front matter name "someone-else" differs from directory name "turncoat"/,
    );
    const listed = (await skillsList()).skills;
    expect(listed.map((s) => s.uri)).not.toContain(skillMdUri(key));
    // No published entry ever contradicts its URI (spec: final segment equals frontmatter.name).
    for (const entry of listed) {
      expect(entry.uri.split('/').at(-2)).toBe(entry.frontmatter.name);
    }

    writeFileSync(path, skillMarkdown({ name: 'turncoat', description: 'Fixed again' }, '# T2\n'));
    const fixed = await skillsGet(skillMdUri(key));
    expectEntryMatchesDisk(fixed.skill, key);
  });

  test('a skill whose SKILL.md was deleted is no longer served by skills/list or skills/get', async () => {
    const key = 'ops/vanishing';
    expectEntryMatchesDisk((await skillsGet(skillMdUri(key))).skill, key);
    rmSync(join(skillDir(key), 'SKILL.md'));
    // skills/list first: over HTTP (watcher off) its own re-check is what must drop the skill.
    const listed = await skillsList();
    expect(listed.skills.map((s) => s.uri)).not.toContain(skillMdUri(key));
    for (const other of ['eng/code-review', 'ops/editable']) {
      expect(listed.skills.map((s) => s.uri)).toContain(skillMdUri(other));
    }
    const err = await rpcError(skillsGet(skillMdUri(key)));
    expect(err.code).toBe(-32602);
    expect((await rpcError(h.client.readResource({ uri: skillMdUri(key) }))).code).toBe(-32002);
  });

  test('skills/get alone also notices a deletion at once', async () => {
    const key = 'ops/incident-response';
    rmSync(join(skillDir(key), 'SKILL.md'));
    const err = await rpcError(skillsGet(skillMdUri(key)));
    expect(err.code).toBe(-32602);
    // Over HTTP (watcher off) the re-check found it gone; over stdio the watcher may have been first.
    expect(['the skill no longer exists', undefined]).toContain(
      (err.data as { reason?: unknown }).reason,
    );
    expect((await skillsList()).skills.map((s) => s.uri)).not.toContain(skillMdUri(key));
  });

  test('an unknown skill, or a URI that is not a SKILL.md, is -32602', async () => {
    for (const uri of [
      'skill://eng/no-such-skill/SKILL.md',
      'skill://no-such-category/x/SKILL.md',
      'skill://eng/code-review/references/guide.md',
      'skill://eng/code-review/references',
    ]) {
      const err = await rpcError(skillsGet(uri));
      expect(err.code).toBe(-32602);
      expect(err.message).toBe(`MCP error -32602: No skill is served at ${uri}`);
    }
    const malformed = await rpcError(skillsGet('skill://eng/../etc/SKILL.md'));
    expect(malformed.code).toBe(-32602);
    expect(malformed.message).toMatch(/Invalid skill URI/);
  });

  test.each([
    ['ops/wrong-name', /front matter name "other-name" differs from directory name "wrong-name"/],
    ['ops/BadCase', /name "BadCase" breaks the Agent Skills naming rules/],
    ['ops/broken-yaml', /front matter is not valid YAML/],
  ])('%s is left out of skills/list, skills/get says why, the log says so', async (key, reason) => {
    const { skills } = await skillsList();
    expect(skills.map((s) => s.uri)).not.toContain(skillMdUri(key));

    const err = await rpcError(skillsGet(skillMdUri(key)));
    expect(err.code).toBe(-32602);
    expect((err.data as { reason?: unknown }).reason).toMatch(reason);

    await waitUntil(
      () => exclusionsOf(`skill://${key}`).length > 0,
      `a log record saying skill://${key} was ${LEFT_OUT}`,
    );
    expect(exclusionsOf(`skill://${key}`)[0].reason).toMatch(reason);

    // It is still an ordinary resource: listed, and readable byte for byte.
    const [category] = key.split('/');
    const listed = await h.client.request(
      { method: 'resources/list', params: { category } },
      AnyResult,
    );
    const entry = (listed.resources as Array<Record<string, unknown>>).find(
      (r) => r.uri === `skill://${key}`,
    );
    const disk = readFileSync(join(skillDir(key), 'SKILL.md'));
    expect(entry).toMatchObject({ name: key.split('/')[1], size: disk.length });
    expect((await bytesOf(`skill://${key}`)).equals(disk)).toBe(true);
  });

  test('broken YAML: listed with what could be read (no invented description)', async () => {
    const listed = await h.client.listResources();
    const entry = listed.resources.find((r) => r.uri === 'skill://ops/broken-yaml');
    expect(entry).toBeDefined();
    expect(entry).toMatchObject({ name: 'broken-yaml', mimeType: 'text/markdown' });
    expect(entry).not.toHaveProperty('description');
    const text = (
      (await h.client.readResource({ uri: 'skill://ops/broken-yaml' }))
        .contents[0] as TextResourceContents
    ).text;
    expect(text).toContain('# Still readable');
    const warnings = logRecords().filter((r) =>
      String(r.problem).startsWith('broken front matter'),
    );
    expect(warnings.map((r) => r.path)).toContain(join(skillDir('ops/broken-yaml'), 'SKILL.md'));
  });

  test('the client saw no protocol errors', () => {
    expect(h.errors).toEqual([]);
  });
});
