import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { SkillsWatcher } from './skills-watcher';

/** A real directory tree and a real watcher; events are collected as they come. */
describe('SkillsWatcher', () => {
  let root: string;
  let outside: string;
  let watcher: SkillsWatcher;
  const changed: Array<string | undefined> = [];
  const refused: string[] = [];

  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'owlclaw-watch-')));
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'owlclaw-watch-out-')));
    mkdirSync(join(root, 'cat', 'skill', 'refs'), { recursive: true });
    mkdirSync(join(outside, 'dir'));
    changed.length = 0;
    refused.length = 0;
  });

  afterEach(() => {
    watcher?.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const start = () => {
    watcher = new SkillsWatcher(root, {
      changed: (path) => changed.push(path),
      refused: (link) => refused.push(link),
      error: (err) => {
        throw err;
      },
    });
    watcher.start();
  };

  const until = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await delay(20);
    expect(check()).toBe(true);
  };

  it('watches every real directory and reports changes by path', async () => {
    start();
    expect(watcher.watchedDirectories.sort()).toEqual(
      [
        root,
        join(root, 'cat'),
        join(root, 'cat', 'skill'),
        join(root, 'cat', 'skill', 'refs'),
      ].sort(),
    );
    writeFileSync(join(root, 'cat', 'skill', 'refs', 'a.md'), 'a');
    await until(() => changed.includes('cat/skill/refs/a.md'));
  });

  it('refuses a link that leaves at start, naming it, and never watches its target', () => {
    symlinkSync(join(outside, 'dir'), join(root, 'cat', 'skill', 'out'));
    start();
    expect(refused).toEqual([join(root, 'cat', 'skill', 'out')]);
    expect(watcher.watchedDirectories.some((dir) => dir.startsWith(outside))).toBe(false);
  });

  it('refuses a directory swapped for a link to the outside after start, and drops its watch', async () => {
    start();
    const refs = join(root, 'cat', 'skill', 'refs');
    rmSync(refs, { recursive: true });
    symlinkSync(join(outside, 'dir'), refs);
    await until(() => refused.includes(refs));
    await until(() => !watcher.watchedDirectories.includes(refs));
    expect(watcher.watchedDirectories.some((dir) => dir.startsWith(outside))).toBe(false);
    const before = changed.length;
    writeFileSync(join(outside, 'dir', 'x.md'), 'x');
    await delay(300);
    expect(changed.length).toBe(before);
  });

  it('follows no link that stays inside either, and asks for a full rescan while one exists', async () => {
    symlinkSync(join(root, 'cat', 'skill', 'refs'), join(root, 'cat', 'alias'));
    start();
    expect(refused).toEqual([]);
    expect(watcher.watchedDirectories).not.toContain(join(root, 'cat', 'alias'));
    writeFileSync(join(root, 'cat', 'skill', 'refs', 'b.md'), 'b');
    await until(() => changed.includes(undefined));
  });
});
