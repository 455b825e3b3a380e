import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const BODY = [
  '# Purpose',
  '',
  'This generated skill explains when and how to use one business tool: which inputs it needs,',
  'which answers to expect and how to read its errors. It stands in for a real skill of typical',
  'length in the catalog growth benchmark.',
  '',
  '## Steps',
  '',
  '1. Check the inputs with the user.',
  '2. Call the tool once; do not retry a denied call.',
  '3. Summarise the result in plain language.',
  '',
].join('\n');

/** Writes `count` skills spread over `categories` categories: `<dir>/cat-NN/skill-NNNNN/SKILL.md`. */
export function writeSkillsDir(dir: string, count: number, categories: number): void {
  for (let i = 0; i < count; i++) {
    const category = `cat-${String(i % categories).padStart(2, '0')}`;
    const name = `skill-${String(i).padStart(5, '0')}`;
    const skillDir = join(dir, category, name);
    mkdirSync(skillDir, { recursive: true });
    const frontMatter = [
      '---',
      `name: ${name}`,
      `title: Generated skill ${i}`,
      `description: How to use generated tool number ${i} of the ${category} category.`,
      `tags: [generated, ${category}, group-${i % 7}]`,
      '---',
      '',
    ].join('\n');
    writeFileSync(join(skillDir, 'SKILL.md'), frontMatter + BODY);
  }
}
