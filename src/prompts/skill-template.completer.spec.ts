import { loadGatewayConfig } from '../config/config.loader';
import { ErrorCode } from '../errors/error-code';
import { GatewayError } from '../errors/gateway.error';
import { ResourceVisibility } from '../resources/resource-visibility';
import { SkillCatalog } from '../resources/skill-catalog';
import { makeTempDir, removeDir, skillMarkdown, writeSkill } from '../../test/support/skills-dir';
import { completionValues } from './completion-values';
import { SKILL_TEMPLATE_VARIABLES, SkillTemplateCompleter } from './skill-template.completer';

const SEED = 'skill://{category}/{name}';
const FILE = 'skill://{category}/{name}/{+path}';
const BULK = 120;

interface TestSkill {
  category: string;
  name: string;
  files?: Record<string, string>;
}

const SKILLS: TestSkill[] = [
  { category: 'inventory', name: 'reorder-policy', files: { 'references/thresholds.md': '# t' } },
  { category: 'inventory', name: 'stock-check' },
  { category: 'orders', name: 'place-order' },
  { category: 'orders', name: 'returns' },
  { category: 'Outdoor', name: 'returns' },
  ...Array.from({ length: BULK }, (_, i) => ({
    category: 'bulk',
    name: `item-${String(i).padStart(3, '0')}`,
  })),
];

describe('SkillTemplateCompleter', () => {
  let skillsDir: string;
  let catalog: SkillCatalog;
  let completer: SkillTemplateCompleter;
  const complete = (uri: string, variable: string, value: string, context = {}) =>
    completionValues(completer.candidates(uri, variable, context, 'client-1'), value);

  beforeAll(() => {
    skillsDir = makeTempDir('prompt-completion');
    for (const { category, name, files } of SKILLS) {
      const skillMd = skillMarkdown({ name, description: `Test skill ${name}` }, `# ${name}\n`);
      writeSkill(skillsDir, category, name, { 'SKILL.md': skillMd, ...files });
    }
    const config = loadGatewayConfig({
      env: {},
      overrides: { resources: { skills_dir: skillsDir } },
    });
    catalog = new SkillCatalog(config);
    catalog.onModuleInit();
    completer = new SkillTemplateCompleter(catalog, new ResourceVisibility());
  });

  afterAll(() => {
    catalog.onModuleDestroy();
    removeDir(skillsDir);
  });

  it('completes categories, sorted, once each, case-insensitively', () => {
    expect(catalog.list()).toHaveLength(SKILLS.length);
    expect(complete(SEED, 'category', '')).toEqual({
      values: ['bulk', 'inventory', 'orders', 'Outdoor'],
      total: 4,
      hasMore: false,
    });
    expect(complete(SEED, 'category', 'O').values).toEqual(['orders', 'Outdoor']);
    expect(complete(FILE, 'category', 'inv').values).toEqual(['inventory']);
  });

  it('completes skill names, within context.category when given', () => {
    expect(complete(SEED, 'name', 're', { category: 'inventory' }).values).toEqual([
      'reorder-policy',
    ]);
    expect(complete(SEED, 'name', 're').values).toEqual(['reorder-policy', 'returns']);
    expect(complete(SEED, 'name', '', { category: 'orders' }).values).toEqual([
      'place-order',
      'returns',
    ]);
    expect(complete(SEED, 'name', '', { category: 'nowhere' })).toEqual({
      values: [],
      total: 0,
      hasMore: false,
    });
  });

  it('caps a long list at 100 values with total and hasMore', () => {
    const all = complete(SEED, 'name', 'ITEM-', { category: 'bulk' });
    expect(all.values).toHaveLength(100);
    expect(all.values[0]).toBe('item-000');
    expect(all).toMatchObject({ total: BULK, hasMore: true });
    expect(complete(SEED, 'name', 'item-11', { category: 'bulk' })).toMatchObject({
      total: 10,
      hasMore: false,
    });
  });

  it('completes file paths of the skill named in the context', () => {
    const context = { category: 'inventory', name: 'reorder-policy' };
    // In the catalog's order (files sorted by path).
    expect(complete(FILE, 'path', '', context).values).toEqual([
      'SKILL.md',
      'references/thresholds.md',
    ]);
    expect(complete(FILE, 'path', 'ref', context).values).toEqual(['references/thresholds.md']);
    expect(complete(FILE, 'path', '', { category: 'inventory' }).values).toEqual([]);
  });

  it('answers for exactly the templates it knows, and their variables', () => {
    expect(Object.keys(SKILL_TEMPLATE_VARIABLES)).toEqual([SEED, FILE]);
    const unknownTemplate = () => completer.candidates('skill://{name}', 'name', {}, 'c');
    expect(unknownTemplate).toThrow(GatewayError);
    expect(unknownTemplate).toThrow('Unknown resource template: skill://{name}');

    try {
      completer.candidates(SEED, 'path', {}, 'c');
      throw new Error('expected a rejection');
    } catch (err) {
      expect(err).toMatchObject({
        code: ErrorCode.InvalidParams,
        message: 'Unknown argument "path" of resource template skill://{category}/{name}',
        data: { argument: 'path', arguments: ['category', 'name'] },
      });
    }
    expect(() => completer.candidates('toString', 'name', {}, 'c')).toThrow(
      'Unknown resource template: toString',
    );
  });
});
