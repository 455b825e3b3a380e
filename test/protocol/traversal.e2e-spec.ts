import { ReadResourceResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { join, relative, sep } from 'node:path';
import request from 'supertest';
import { z } from 'zod';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { connectSdkClient, SdkClientHandle } from '../support/sdk-clients';
import {
  makeTempDir,
  removeDir,
  skillMarkdown,
  writeFileDeep,
  writeSkill,
} from '../support/skills-dir';
import { rpcError } from '../support/rpc-error';

/**
 * Path traversal against every surface that takes a skill URI: resources/read,
 * resources/subscribe, skills/get, resources/directory/read (over stdio and
 * Streamable HTTP) and the HTTP mirror. Each attempt must be refused with
 * -32602/-32002 (HTTP 400/404), and the content of the file outside the skills
 * directory must never appear in anything the gateway sends or logs.
 *
 * What this proves, and what it does not:
 * - Responses and logs: every byte the client received (the SDK's wire record),
 *   every mirror response (body and headers) and the gateway's stderr (stdio)
 *   are searched for a random secret that exists only in the outside files.
 * - "No disk access outside" cannot be shown with a directory of mode 000: the
 *   tests run as root, which ignores permissions. Instead, for the in-process
 *   HTTP gateway every call the process makes through the public `fs` module
 *   with a path under the test's temp dir is traced (recording the path's real
 *   target at call time). The suite asserts that no path argument ever named
 *   anything outside the skills dir, and that no content operation (read,
 *   open, readdir) ever resolved outside it.
 * - Not proven: the stdio child (another process; only its answers and logs
 *   are checked); access through native code that bypasses the `fs` module;
 *   and metadata. Resolving an in-skill symlink (realpath, stat, and Node's
 *   recursive fs.watch, which puts an inotify watch on the link) necessarily
 *   lets the kernel follow it to the outside target's inode; that reveals the
 *   target's metadata and change events to the gateway, never its content.
 */

const KINDS = ['stdio', 'streamable-http'] as const;
type Kind = (typeof KINDS)[number];

const AnyResult = z.looseObject({});

/** Content operations: the real path they touch must stay inside the skills dir. */
const CONTENT_FNS = new Set([
  'readFileSync',
  'readFile',
  'openSync',
  'open',
  'readdirSync',
  'readdir',
  'opendirSync',
  'opendir',
  'createReadStream',
  'promises.readFile',
  'promises.open',
  'promises.readdir',
  'promises.opendir',
]);
/** Metadata operations: traced for their arguments only (the kernel follows links for them). */
const METADATA_FNS = ['statSync', 'lstatSync', 'realpathSync', 'existsSync', 'watch', 'watchFile'];

interface FsCall {
  fn: string;
  path: string;
  /** The path's real target when the call was made (the path itself when it did not exist). */
  real: string;
}

/** Wraps public `fs` functions to record calls whose path lies under `root`; returns an undo. */
function traceFs(root: string, calls: FsCall[], paused: { on: boolean }): () => void {
  const realpath = fs.realpathSync.bind(fs);
  const undo: Array<() => void> = [];
  const wrap = (target: object, name: string, label: string) => {
    const host = target as Record<string, unknown>;
    const original = host[name];
    if (typeof original !== 'function') return;
    host[name] = function (this: unknown, ...args: unknown[]) {
      const arg = args[0];
      const path =
        typeof arg === 'string'
          ? arg
          : Buffer.isBuffer(arg)
            ? arg.toString('utf8')
            : arg instanceof URL
              ? arg.pathname
              : undefined;
      if (!paused.on && path !== undefined && path.startsWith(root)) {
        let real = path;
        try {
          real = realpath(path);
        } catch {
          // Does not exist (yet): the path itself is what would be touched.
        }
        calls.push({ fn: label, path, real });
      }
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
    undo.push(() => (host[name] = original));
  };
  for (const name of [...CONTENT_FNS].filter((n) => !n.startsWith('promises.'))) {
    wrap(fs, name, name);
  }
  for (const name of METADATA_FNS) wrap(fs, name, name);
  for (const name of ['readFile', 'open', 'readdir', 'opendir']) {
    wrap(fs.promises, name, `promises.${name}`);
  }
  return () => undo.reverse().forEach((restore) => restore());
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

describe.each(KINDS)('path traversal over %s', (kind: Kind) => {
  const SECRET = `OUTSIDE-SECRET-${randomUUID()}`;
  let temp: string;
  let skillsDir: string;
  let outsideDir: string;
  let outsideFile: string;
  let gateway: HttpGatewayHandle | undefined;
  let h: SdkClientHandle;
  const fsCalls: FsCall[] = [];
  const tracePaused = { on: false };
  let untrace: (() => void) | undefined;
  /** Every mirror response, for the secret search. */
  const mirrorResponses: string[] = [];

  /** Runs the test's own disk operations without tracing them (only the gateway's are wanted). */
  function untraced<T>(fn: () => T): T {
    tracePaused.on = true;
    try {
      return fn();
    } finally {
      tracePaused.on = false;
    }
  }

  /**
   * The layout: <temp>/skills is the skills dir; <temp>/outside holds the secret,
   * reachable from inside only through symbolic links.
   */
  function buildLayout(): void {
    temp = makeTempDir(`traversal-${kind}`);
    skillsDir = join(temp, 'skills');
    outsideDir = join(temp, 'outside');
    outsideFile = join(outsideDir, 'secret.md');
    const secretSkill = skillMarkdown(
      { name: 'stolen', description: `outside ${SECRET}` },
      `# ${SECRET}\n`,
    );
    writeFileDeep(outsideFile, `# Outside\n\n${SECRET}\n`);
    writeFileDeep(join(outsideDir, 'dir', 'inner.md'), `${SECRET}\n`);
    writeFileDeep(join(outsideDir, 'secret-skill.md'), secretSkill);
    writeFileDeep(join(outsideDir, 'stolen-cat', 'stolen', 'SKILL.md'), secretSkill);

    writeSkill(skillsDir, 'cat', 'legit', {
      'SKILL.md': skillMarkdown({ name: 'legit', description: 'The only real skill' }, '# Legit\n'),
      'references/ok.md': '# ok\n',
      'swap.md': 'swap v1\n',
    });
    writeSkill(skillsDir, 'cat', 'swappable', {
      'SKILL.md': skillMarkdown({ name: 'swappable', description: 'Swapped later' }, '# v1\n'),
    });
    const legit = join(skillsDir, 'cat', 'legit');
    // A link that stays inside: the positive control (links as such are fine).
    fs.symlinkSync(join(legit, 'references', 'ok.md'), join(legit, 'alias.md'));
    // Links that leave: a file, a directory, a SKILL.md, a skill dir, a category dir.
    fs.symlinkSync(outsideFile, join(legit, 'leak.md'));
    fs.symlinkSync(join(outsideDir, 'dir'), join(legit, 'refs-out'));
    fs.mkdirSync(join(skillsDir, 'cat', 'linked-skill-md'));
    fs.symlinkSync(
      join(outsideDir, 'secret-skill.md'),
      join(skillsDir, 'cat', 'linked-skill-md', 'SKILL.md'),
    );
    fs.symlinkSync(join(outsideDir, 'stolen-cat', 'stolen'), join(skillsDir, 'cat', 'evilskill'));
    fs.symlinkSync(join(outsideDir, 'stolen-cat'), join(skillsDir, 'evilcat'));
  }

  beforeAll(async () => {
    buildLayout();
    if (kind === 'streamable-http') {
      untrace = traceFs(temp, fsCalls, tracePaused);
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
    untrace?.();
    removeDir(temp);
  });

  /** Malformed: refused by the URI parser (-32602) before anything is looked up. */
  const MALFORMED: Array<[string, () => string]> = [
    ['.. segments', () => 'skill://cat/legit/../../../outside/secret.md'],
    ['.. as the name', () => 'skill://cat/../../outside/secret.md'],
    ['%2e%2e segments', () => 'skill://cat/legit/%2e%2e/%2e%2e/%2e%2e/outside/secret.md'],
    ['%2E%2E%2F in one segment', () => 'skill://cat/legit/%2E%2E%2F%2E%2E%2Foutside%2Fsecret.md'],
    ['encoded ../ in the category', () => 'skill://..%2F..%2Foutside/secret.md'],
    ['an absolute path', () => 'skill:///etc/passwd'],
    ['the outside file as an absolute path', () => `skill://${outsideFile}`],
    ['the outside file as a file:// URI', () => `file://${outsideFile}`],
    ['backslashes', () => 'skill://cat/legit/..\\..\\..\\outside\\secret.md'],
    ['encoded backslashes', () => 'skill://cat/legit/..%5C..%5C..%5Coutside%5Csecret.md'],
    ['%00', () => 'skill://cat/legit/SKILL.md%00/../../../outside/secret.md'],
    ['raw NUL', () => 'skill://cat/legit/ok.md\u0000/../../../outside/secret.md'],
    ['a query string', () => 'skill://cat/legit/SKILL.md?path=../../../outside/secret.md'],
  ];
  /** Well-formed, but naming something the catalog never took in: not found (-32002). */
  const ABSENT: Array<[string, () => string]> = [
    ['a symlink inside a skill to the outside file', () => 'skill://cat/legit/leak.md'],
    ['a file under a symlinked directory', () => 'skill://cat/legit/refs-out/inner.md'],
    ['a symlinked directory itself', () => 'skill://cat/legit/refs-out'],
    ['a SKILL.md that links outside', () => 'skill://cat/linked-skill-md/SKILL.md'],
    ['the seed URI of that skill', () => 'skill://cat/linked-skill-md'],
    ['a symlinked category dir', () => 'skill://evilcat/stolen/SKILL.md'],
    ['the seed URI under it', () => 'skill://evilcat/stolen'],
    ['a symlinked skill dir', () => 'skill://cat/evilskill/SKILL.md'],
    ['a name that exists next to the skills dir', () => 'skill://outside/secret.md'],
  ];
  const ATTEMPTS: Array<[string, () => string, 'malformed' | 'absent']> = [
    ...MALFORMED.map(([l, u]) => [l, u, 'malformed'] as [string, () => string, 'malformed']),
    ...ABSENT.map(([l, u]) => [l, u, 'absent'] as [string, () => string, 'absent']),
  ];

  test.each(ATTEMPTS)('%s is refused by all four methods', async (_label, uriOf, kindOf) => {
    const uri = uriOf();
    const readCode = kindOf === 'malformed' ? -32602 : -32002;
    const read = await rpcError(
      h.client.request({ method: 'resources/read', params: { uri } }, ReadResourceResultSchema),
    );
    expect(read.code).toBe(readCode);
    const subscribe = await rpcError(
      h.client.request({ method: 'resources/subscribe', params: { uri } }, AnyResult),
    );
    expect(subscribe.code).toBe(readCode);
    // The Skills extension answers -32602 for anything that is not a served skill / directory.
    const get = await rpcError(
      h.client.request({ method: 'skills/get', params: { uri } }, AnyResult),
    );
    expect(get.code).toBe(-32602);
    const dir = await rpcError(
      h.client.request({ method: 'resources/directory/read', params: { uri } }, AnyResult),
    );
    expect(dir.code).toBe(-32602);
    for (const err of [read, subscribe, get, dir])
      expect(JSON.stringify(err)).not.toContain(SECRET);
  });

  test('listings show only what is really inside: no link that leaves is listed anywhere', async () => {
    const listed = await h.client.listResources();
    expect(listed.resources.map((r) => r.uri).sort()).toEqual([
      'skill://cat/legit',
      'skill://cat/swappable',
    ]);
    const skills = await h.client.request({ method: 'skills/list', params: {} }, AnyResult);
    const entries = skills.skills as Array<{ uri: string; resources: Array<{ uri: string }> }>;
    expect(entries.map((s) => s.uri).sort()).toEqual([
      'skill://cat/legit/SKILL.md',
      'skill://cat/swappable/SKILL.md',
    ]);
    const legit = entries.find((s) => s.uri === 'skill://cat/legit/SKILL.md')!;
    expect(legit.resources.map((r) => r.uri).sort()).toEqual([
      'skill://cat/legit/SKILL.md',
      'skill://cat/legit/alias.md',
      'skill://cat/legit/references/ok.md',
      'skill://cat/legit/swap.md',
    ]);
    const root = await h.client.request(
      { method: 'resources/directory/read', params: { uri: 'skill://cat/legit' } },
      AnyResult,
    );
    expect((root.resources as Array<{ name: string }>).map((r) => r.name).sort()).toEqual([
      'SKILL.md',
      'alias.md',
      'references',
      'swap.md',
    ]);
  });

  test('positive control: a symlink that stays inside the skills dir is served', async () => {
    const { contents } = await h.client.readResource({ uri: 'skill://cat/legit/alias.md' });
    expect(contents).toEqual([expect.objectContaining({ text: '# ok\n' })]);
  });

  test('a file swapped for a link to the outside after the scan is refused at read time', async () => {
    const uri = 'skill://cat/legit/swap.md';
    expect((await h.client.readResource({ uri })).contents[0]).toMatchObject({
      text: 'swap v1\n',
    });
    const path = join(skillsDir, 'cat', 'legit', 'swap.md');
    untraced(() => {
      fs.rmSync(path);
      fs.symlinkSync(outsideFile, path);
    });
    // At once (the watcher has not caught up yet): the read re-proves the real path.
    expect((await rpcError(h.client.readResource({ uri }))).code).toBe(-32002);
    // skills/get re-checks freshness, sees the change and drops the file from the manifest.
    const got = await h.client.request(
      { method: 'skills/get', params: { uri: 'skill://cat/legit/SKILL.md' } },
      AnyResult,
    );
    const manifest = (got.skill as { resources: Array<{ uri: string }> }).resources;
    expect(manifest.map((r) => r.uri)).not.toContain(uri);

    // The same for a SKILL.md, through resources/read and (HTTP) the mirror.
    const skillMd = join(skillsDir, 'cat', 'swappable', 'SKILL.md');
    untraced(() => {
      fs.rmSync(skillMd);
      fs.symlinkSync(join(outsideDir, 'secret-skill.md'), skillMd);
    });
    expect((await rpcError(h.client.readResource({ uri: 'skill://cat/swappable' }))).code).toBe(
      -32002,
    );
    if (gateway) {
      const res = await request(gateway.baseUrl).get('/resources/skill/cat/swappable');
      mirrorResponses.push(JSON.stringify({ headers: res.headers, body: res.text }));
      expect(res.status).toBe(404);
    }
  });

  if (kind === 'streamable-http') {
    const MIRROR: Array<[string, 400 | 404, () => string]> = [
      ['a symlinked category', 404, () => '/resources/skill/evilcat/stolen'],
      ['a symlinked skill dir', 404, () => '/resources/skill/cat/evilskill'],
      ['a SKILL.md that links outside', 404, () => '/resources/skill/cat/linked-skill-md'],
      ['a name next to the skills dir', 404, () => '/resources/skill/outside/secret.md'],
      ['.. as the name', 400, () => '/resources/skill/cat/..'],
      ['%2e%2e segments', 400, () => '/resources/skill/%2e%2e/%2e%2e'],
      ['encoded ../ in the category', 400, () => '/resources/skill/..%2F..%2Foutside/secret.md'],
      [
        '%2E%2E%2F in the name',
        400,
        () => '/resources/skill/cat/%2E%2E%2F%2E%2E%2F%2E%2E%2Foutside%2Fsecret.md',
      ],
      [
        'the outside dir as an absolute category',
        400,
        () => `/resources/skill/${encodeURIComponent(outsideDir)}/secret.md`,
      ],
      ['encoded backslashes', 400, () => '/resources/skill/cat/legit%5C..%5C..%5Coutside'],
      ['%00', 400, () => '/resources/skill/cat/legit%00'],
      ['a path below a skill (no such route)', 404, () => '/resources/skill/cat/legit/leak.md'],
      ['raw .. segments (no such route)', 404, () => '/resources/skill/../../outside/secret.md'],
    ];

    test.each(MIRROR)('HTTP mirror: %s is %i', async (_label, status, pathOf) => {
      const res = await request(gateway!.baseUrl).get(pathOf());
      mirrorResponses.push(JSON.stringify({ headers: res.headers, body: res.text }));
      expect(res.status).toBe(status);
    });

    test('HTTP mirror positive control: the real skill is served', async () => {
      const res = await request(gateway!.baseUrl).get('/resources/skill/cat/legit');
      mirrorResponses.push(JSON.stringify({ headers: res.headers, body: res.text }));
      expect(res.status).toBe(200);
      expect(res.text).toContain('# Legit');
    });

    test('the gateway process never named, opened or listed a path outside the skills dir', () => {
      const reads = fsCalls.filter((c) => CONTENT_FNS.has(c.fn));
      // The trace is live: it saw the scan and the reads of the real skill.
      expect(reads.some((c) => c.real === join(skillsDir, 'cat', 'legit', 'SKILL.md'))).toBe(true);
      expect(fsCalls.some((c) => c.fn === 'realpathSync')).toBe(true);
      const namedOutside = fsCalls.filter((c) => !isInside(skillsDir, c.path));
      expect(namedOutside).toEqual([]);
      const readOutside = reads.filter((c) => !isInside(skillsDir, c.real));
      expect(readOutside).toEqual([]);
    });
  }

  test('the secret never appeared in any answer, notification, mirror response or log', () => {
    const received = JSON.stringify(h.wire.received);
    expect(received.length).toBeGreaterThan(1000);
    expect(received).not.toContain(SECRET);
    for (const response of mirrorResponses) expect(response).not.toContain(SECRET);
    if (h.stdio) {
      // The log does mention the refused links (their paths), never their content.
      expect(h.stdio.stderr()).toContain('symbolic link leaves the skills directory');
      expect(h.stdio.stderr()).not.toContain(SECRET);
    }
    // The secret is really there to be found: the detector is not vacuous.
    expect(untraced(() => fs.readFileSync(outsideFile, 'utf8'))).toContain(SECRET);
    expect(h.errors).toEqual([]);
  });
});
