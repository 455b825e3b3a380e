/**
 * Finding 7, skills watcher: Node's recursive watch (Linux) put an inotify
 * watch on whatever a symbolic link under the skills directory points at,
 * outside it included. Now no link is followed by the watcher, links that
 * leave the directory are refused with a warning naming each, and nothing
 * behind them is listed, read or notified. The real CLI over stdio; the
 * watched inodes are read from /proc.
 */
import {
  appendFileSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import {
  makeTempDir,
  removeDir,
  skillMarkdown,
  writeFileDeep,
  writeSkill,
} from '../support/skills-dir';
import { StdioGatewayProcess } from '../support/stdio-process';
import { killAllGateways, spawnTracked } from '../support/tracked-gateways';

/** Inode numbers of everything a process's inotify instances watch (Linux /proc). */
function watchedInodes(pid: number): Set<number> {
  const inodes = new Set<number>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    if (target !== 'anon_inode:inotify') continue;
    const info = readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8');
    for (const [, ino] of info.matchAll(/^inotify wd:\S+ ino:([0-9a-f]+) /gm)) {
      inodes.add(parseInt(ino, 16));
    }
  }
  return inodes;
}

const SKILL_NOTIFICATIONS = (m: Record<string, unknown>) =>
  typeof m.method === 'string' && m.method.startsWith('notifications/resources/');

const describeOnLinux = process.platform === 'linux' ? describe : describe.skip;

describeOnLinux('skills watcher refuses links that leave the directory (finding 7)', () => {
  let skills: string;
  let outside: string;
  let gateway: StdioGatewayProcess;

  beforeAll(async () => {
    skills = makeTempDir('sec-skills');
    outside = makeTempDir('sec-outside');
    writeSkill(skills, 'cat', 'legit', {
      'SKILL.md': skillMarkdown({ description: 'Legit' }, 'Body'),
      'refs/ok.md': 'ok',
    });
    writeFileDeep(join(outside, 'secret.md'), 'outside secret');
    writeFileDeep(join(outside, 'dir', 'inner.md'), 'outside inner');
    writeFileDeep(join(outside, 'stolen', 'SKILL.md'), skillMarkdown({ description: 'x' }, 'x'));
    symlinkSync(join(outside, 'secret.md'), join(skills, 'cat', 'legit', 'leak.md'));
    symlinkSync(join(outside, 'dir'), join(skills, 'cat', 'legit', 'refs-out'));
    symlinkSync(join(outside, 'stolen'), join(skills, 'cat', 'stolen'));
    symlinkSync(outside, join(skills, 'outcat'));
    gateway = await spawnTracked({ env: { MCP_SERVER_RESOURCES_SKILLS_DIR: skills } });
    await gateway.initialize();
  });

  afterAll(async () => {
    await killAllGateways();
    removeDir(skills);
    removeDir(outside);
  });

  it('warns about each link that leaves, naming it', () => {
    for (const link of [
      join(skills, 'cat', 'legit', 'leak.md'),
      join(skills, 'cat', 'legit', 'refs-out'),
      join(skills, 'cat', 'stolen'),
      join(skills, 'outcat'),
    ]) {
      expect(gateway.stderr).toContain(JSON.stringify(link).slice(1, -1));
    }
    expect(gateway.stderr).toContain('symbolic link leaves the skills directory');
  });

  it('watches the real directories inside and nothing outside', () => {
    const watched = watchedInodes(gateway.child.pid!);
    expect(watched.has(statSync(join(skills, 'cat', 'legit')).ino)).toBe(true);
    expect(watched.has(statSync(join(skills, 'cat', 'legit', 'refs')).ino)).toBe(true);
    for (const path of ['', 'secret.md', 'dir', 'dir/inner.md', 'stolen', 'stolen/SKILL.md']) {
      expect([path, watched.has(statSync(join(outside, path)).ino)]).toEqual([path, false]);
    }
  });

  it('neither lists nor reads anything behind those links', async () => {
    const list = await gateway.request('resources/list', {});
    const uris = (list.result as { resources: Array<{ uri: string }> }).resources.map((r) => r.uri);
    expect(uris).toContain('skill://cat/legit');
    expect(uris.filter((uri) => uri.includes('stolen') || uri.includes('outcat'))).toEqual([]);
    for (const uri of [
      'skill://cat/legit/leak.md',
      'skill://cat/legit/refs-out/inner.md',
      'skill://cat/stolen',
      'skill://outcat/stolen',
    ]) {
      const read = await gateway.request('resources/read', { uri });
      expect([uri, read.error]).toEqual([uri, expect.objectContaining({ code: -32002 })]);
      expect(JSON.stringify(read)).not.toContain('outside');
    }
  });

  it('sends nothing when the outside targets change, and still notices changes inside', async () => {
    const subscribed = await gateway.request('resources/subscribe', { uri: 'skill://cat/legit' });
    expect(subscribed).toHaveProperty('result');
    const before = gateway.messages.filter(SKILL_NOTIFICATIONS).length;
    appendFileSync(join(outside, 'secret.md'), ' changed');
    appendFileSync(join(outside, 'dir', 'inner.md'), ' changed');
    writeFileDeep(join(outside, 'dir', 'new.md'), 'new');
    writeFileDeep(join(outside, 'stolen', 'refs', 'more.md'), 'more');
    await delay(1500);
    expect(gateway.messages.filter(SKILL_NOTIFICATIONS).length).toBe(before);

    appendFileSync(join(skills, 'cat', 'legit', 'refs', 'ok.md'), ' changed');
    const notified = await gateway.waitFor(
      (m) => SKILL_NOTIFICATIONS(m) && gateway.messages.filter(SKILL_NOTIFICATIONS).length > before,
      10_000,
    );
    expect(notified.method).toMatch(/^notifications\/resources\/(updated|list_changed)$/);
  });
});
