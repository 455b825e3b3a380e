import { RegisteredTool } from './registered-tool';
import { ToolRegistry } from './tool.registry';

function tool(estimatedCost: number | undefined, maxCost?: number): RegisteredTool {
  return {
    name: 'priced',
    origin: 'PricedCapability.run',
    options: { name: 'priced', description: 'd', estimatedCost, maxCost },
    inputSchema: { type: 'object' },
    validate: (args) => Promise.resolve(args),
    execute: () => Promise.resolve('ran'),
  };
}

describe('ToolRegistry estimated costs', () => {
  it.each([-1, NaN, Infinity, -Infinity])(
    'refuses to register a tool estimated at %p, naming the tool and the rule',
    (cost) => {
      const registry = new ToolRegistry();
      expect(() => registry.register(tool(cost))).toThrow(
        `Invalid estimatedCost ${String(cost)} for tool "priced" (PricedCapability.run): it must be a finite number >= 0`,
      );
      expect(registry.size).toBe(0);
    },
  );

  it.each([undefined, 0, 0.25, 10])('registers a tool estimated at %p', (cost) => {
    const registry = new ToolRegistry();
    registry.register(tool(cost));
    expect(registry.get('priced')?.options.estimatedCost).toBe(cost);
  });

  it.each([
    [1, -1],
    [1, NaN],
    [1, Infinity],
    [2, 1],
    [undefined, -0.5],
  ])('refuses a tool estimated at %p whose maxCost is %p', (estimate, maxCost) => {
    const registry = new ToolRegistry();
    expect(() => registry.register(tool(estimate, maxCost))).toThrow(
      `Invalid maxCost ${String(maxCost)} for tool "priced" (PricedCapability.run): it must be a finite number >= estimatedCost (${estimate ?? 0})`,
    );
    expect(registry.size).toBe(0);
  });

  it.each([
    [undefined, 0],
    [1, 1],
    [1, 3],
  ])('registers a tool estimated at %p whose maxCost is %p', (estimate, maxCost) => {
    const registry = new ToolRegistry();
    registry.register(tool(estimate, maxCost));
    expect(registry.get('priced')?.options.maxCost).toBe(maxCost);
  });
});

describe('ToolRegistry.replace', () => {
  const named = (name: string, origin = `Batch.${name}`): RegisteredTool => ({
    ...tool(undefined),
    name,
    origin,
    options: { name, description: 'd' },
  });

  it('removes and adds a batch as one change', () => {
    const registry = new ToolRegistry();
    registry.register(named('a'));
    registry.register(named('b'));
    const versions: number[] = [];
    registry.onChange((version) => versions.push(version));
    registry.replace(['a', 'missing'], [named('a', 'Other.a'), named('c')]);

    expect(registry.list().map((t) => `${t.name}:${t.origin}`)).toEqual([
      'b:Batch.b',
      'a:Other.a',
      'c:Batch.c',
    ]);
    expect(versions).toEqual([3]);
  });

  it('changes nothing when one added tool is refused', () => {
    const registry = new ToolRegistry();
    registry.register(named('a'));
    expect(() => registry.replace(['a'], [named('b'), named('b', 'Twice.b')])).toThrow(
      'Duplicate tool name "b": declared by Batch.b and Twice.b',
    );
    expect(() => registry.replace([], [named('a', 'Late.a')])).toThrow('Duplicate tool name "a"');
    expect(registry.list().map((t) => t.name)).toEqual(['a']);
    expect(registry.version).toBe(1);
  });
});
