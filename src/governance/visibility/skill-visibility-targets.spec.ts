import { skillVisibilityTargets } from './skill-visibility-targets';

describe('skillVisibilityTargets', () => {
  it('names the file and every folder above it inside the skill as prefixes of one URI', () => {
    const targets = skillVisibilityTargets('skill://docs/handbook/refs/deep/b.md');
    expect(targets).toBeDefined();
    const { skill, file, ends } = targets!;
    expect(skill).toBe('skill://docs/handbook');
    expect(file).toBe('skill://docs/handbook/refs/deep/b.md');
    expect(ends.map((end) => file.slice(0, end))).toEqual([
      'skill://docs/handbook/refs',
      'skill://docs/handbook/refs/deep',
      'skill://docs/handbook/refs/deep/b.md',
    ]);
  });

  it('judges the seed URI as its SKILL.md, in canonical spelling', () => {
    expect(skillVisibilityTargets('skill://caf%c3%a9/b')).toEqual({
      skill: 'skill://caf%C3%A9/b',
      file: 'skill://caf%C3%A9/b/SKILL.md',
      ends: ['skill://caf%C3%A9/b/SKILL.md'.length],
    });
  });

  it('keeps one copy of a deep URI: one end per segment, no URI per folder', () => {
    const uri = `skill://a/b/${'x/'.repeat(5000)}y`;
    const { file, ends } = skillVisibilityTargets(uri)!;
    expect(file).toBe(uri);
    expect(ends).toHaveLength(5001);
  });

  it('is undefined for what is not a skill URI', () => {
    expect(skillVisibilityTargets('test://static-1')).toBeUndefined();
    expect(skillVisibilityTargets('skill://a')).toBeUndefined();
  });
});
