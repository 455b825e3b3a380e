import { DEFAULT_CONFIG } from './config.defaults';
import { validateGatewayConfigShape } from './config.schema';
import { configShapeProblems, MAX_CONFIG_DEPTH } from './config-shape.check';

describe('configShapeProblems', () => {
  const withClient = (name: string) => ({
    ...DEFAULT_CONFIG,
    governance: {
      ...DEFAULT_CONFIG.governance,
      clients: JSON.parse(`{"${name}": {"allow": ["*"]}}`) as object,
    },
  });

  it.each(['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty'])(
    'refuses a client named %s, naming the key, instead of throwing or dropping it',
    (name) => {
      const result = validateGatewayConfigShape(withClient(name));
      expect(result).toEqual({
        ok: false,
        problems: [
          expect.objectContaining({
            path: ['governance', 'clients', name],
            message: expect.stringContaining('reserved name') as string,
          }),
        ],
      });
      expect(({} as Record<string, unknown>).allow).toBeUndefined();
    },
  );

  it('keeps ordinary client ids', () => {
    const result = validateGatewayConfigShape(withClient('constructor-team'));
    expect(result.ok && Object.keys(result.config.governance.clients)).toEqual([
      'constructor-team',
    ]);
  });

  it('refuses nesting past the limit without recursing into it', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const problems = configShapeProblems({ governance: deep });
    expect(problems).toHaveLength(1);
    expect(problems[0].path).toHaveLength(MAX_CONFIG_DEPTH);
    expect(problems[0].message).toMatch(/nested deeper than 32 levels/);
  });
});
