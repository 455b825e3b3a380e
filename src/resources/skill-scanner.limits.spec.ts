import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_SKILL_BYTES, MAX_SKILL_FILES } from './skill-naming';
import { scanSkills } from './skill-scanner';

/** The Skills extension's per-skill limits, on real files in a temporary skills directory. */
describe('skill scanner: per-skill limits of the Skills extension', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'owlclaw-skill-limits-'));
    // SKILL.md plus (n - 1) one-byte files.
    const skill = (name: string, files: number) => {
      const dir = join(root, 'limits', name);
      mkdirSync(join(dir, 'refs'), { recursive: true });
      writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: limit test\n---\n`);
      for (let i = 1; i < files; i++) writeFileSync(join(dir, 'refs', `f${i}.txt`), 'x');
    };
    skill('at-file-limit', MAX_SKILL_FILES);
    skill('over-file-limit', MAX_SKILL_FILES + 1);
    skill('at-byte-limit', 1);
    skill('over-byte-limit', 1);
    const head = (name: string) =>
      Buffer.byteLength(`---\nname: ${name}\ndescription: limit test\n---\n`);
    writeFileSync(
      join(root, 'limits', 'at-byte-limit', 'big.bin'),
      Buffer.alloc(MAX_SKILL_BYTES - head('at-byte-limit')),
    );
    writeFileSync(
      join(root, 'limits', 'over-byte-limit', 'big.bin'),
      Buffer.alloc(MAX_SKILL_BYTES - head('over-byte-limit') + 1),
    );
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('publishes skills at the limits and leaves out those over them, saying why', () => {
    const { skills } = scanSkills(root);
    const byName = new Map(skills.map((skill) => [skill.name, skill]));
    expect(byName.get('at-file-limit')?.files).toHaveLength(MAX_SKILL_FILES);
    expect(byName.get('at-file-limit')?.excludedFromSkillsList).toBeUndefined();
    expect(byName.get('at-byte-limit')?.totalBytes).toBe(MAX_SKILL_BYTES);
    expect(byName.get('at-byte-limit')?.excludedFromSkillsList).toBeUndefined();
    expect(byName.get('over-file-limit')?.excludedFromSkillsList).toBe(
      `${MAX_SKILL_FILES + 1} files exceed the limit of ${MAX_SKILL_FILES}`,
    );
    expect(byName.get('over-byte-limit')?.excludedFromSkillsList).toBe(
      `${MAX_SKILL_BYTES + 1} bytes exceed the limit of ${MAX_SKILL_BYTES}`,
    );
  });
});
