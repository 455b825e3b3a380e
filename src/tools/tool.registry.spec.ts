import { RegisteredTool } from './registered-tool';
import { ToolRegistry } from './tool.registry';

function tool(estimatedCost: number | undefined): RegisteredTool {
  return {
    name: 'priced',
    origin: 'PricedCapability.run',
    options: { name: 'priced', description: 'd', estimatedCost },
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
});
