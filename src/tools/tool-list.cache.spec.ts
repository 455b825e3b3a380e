import { RequestAbort } from '../common/request-abort';
import fc from 'fast-check';
import { loadGatewayConfig } from '../config/config.loader';
import { GatewayConfig } from '../config/gateway-config';
import { McpRequestContext } from '../json-rpc/mcp-request-context';
import { McpSession } from '../session/mcp-session';
import { paginate } from './list-cursor';
import { RegisteredTool } from './registered-tool';
import { validateNoArguments } from './tool-arguments.validator';
import { ToolLimitHints } from './tool-limit-hints';
import { ToolListCache, ToolListEntry } from './tool-list.cache';
import { GovernanceRules } from '../governance/rules/governance-rules';
import { QuotaPolicy } from '../governance/quota/quota.policy';
import { VisibilityPolicy } from '../governance/visibility/visibility.policy';
import { ToolVisibility } from './tool-visibility';
import { UntracedRequestTracer } from '../observability/tracing/untraced-request.tracer';
import { ToolExecutor } from './tool.executor';
import { ToolRegistry } from './tool.registry';
import { META_RATE_LIMITS, TOOLS_PAGE_SIZE } from './tools.constants';
import { ToolsMethods } from './tools.methods';
import { TaskLauncher } from '../tasks/task.launcher';

/** tools/list never decides on tasks; these specs exercise only the list. */
const LISTS_NEVER_LAUNCH_TASKS = {} as TaskLauncher;

/**
 * Seed Property 11: the tools/list cache never serves a stale list, and
 * pagination neither loses nor repeats a tool.
 */

const RUNS = { numRuns: 150 };
const config: GatewayConfig = loadGatewayConfig({ env: {} });

function tool(
  name: string,
  options: { hidden?: boolean; description?: string } = {},
): RegisteredTool {
  return {
    name,
    options: {
      name,
      description: options.description ?? `tool ${name}`,
      visibility: options.hidden ? 'hidden' : 'public',
    },
    origin: `spec.${name}`,
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    validate: (args) => validateNoArguments(name, args),
    execute: () => Promise.resolve(name),
  };
}

/** A complete request context for tools/list (it only reads clientId, but nothing is left out). */
function listContext(): McpRequestContext {
  const session = new McpSession('stdio', 'property-client');
  const abort = new RequestAbort();
  return {
    method: 'tools/list',
    requestId: 1,
    session,
    clientId: session.clientId,
    transport: session.transport,
    abort,
    signal: abort.signal,
    meta: {},
    call: {},
    responseHeaders: {},
    traceId: 'property-trace',
    notify: () => false,
    request: () => Promise.reject(new Error('no client in a unit spec')),
    log: () => false,
  };
}

type Op =
  | { kind: 'register'; name: string; hidden: boolean; description: string }
  | { kind: 'unregister'; name: string }
  | { kind: 'read' };

// A small name pool, so that duplicates, re-registrations and removals of absent names all happen.
const nameArb = fc.constantFrom(...Array.from({ length: 8 }, (_, i) => `t_${i}`));
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('register' as const),
    name: nameArb,
    hidden: fc.boolean(),
    description: fc.string({ maxLength: 12 }),
  }),
  fc.record({ kind: fc.constant('unregister' as const), name: nameArb }),
  fc.constant({ kind: 'read' as const }),
);

describe('ToolListCache (Property 11)', () => {
  test('after any sequence of register/unregister, the entries equal the registry, in order', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40, size: 'max' }), (ops) => {
        const registry = new ToolRegistry();
        const cache = new ToolListCache(registry, config);
        const model: RegisteredTool[] = [];

        for (const op of ops) {
          if (op.kind === 'register') {
            const registering = tool(op.name, { hidden: op.hidden, description: op.description });
            const duplicate = model.some((t) => t.name === op.name);
            if (duplicate) {
              const version = registry.version;
              expect(() => registry.register(registering)).toThrow(/Duplicate tool name/);
              expect(registry.version).toBe(version);
            } else {
              registry.register(registering);
              model.push(registering);
            }
          } else if (op.kind === 'unregister') {
            const index = model.findIndex((t) => t.name === op.name);
            expect(registry.unregister(op.name)).toBe(index !== -1);
            if (index !== -1) model.splice(index, 1);
          }

          // Read after every step: a stale cache would show up here.
          const entries = cache.entries();
          expect([...entries.keys()]).toEqual(model.map((t) => t.name));
          expect(registry.list().map((t) => t.name)).toEqual(model.map((t) => t.name));
          for (const t of model) {
            expect(entries.get(t.name)?.entry).toMatchObject({
              name: t.name,
              description: t.options.description,
              inputSchema: t.inputSchema,
            });
          }
          // Unchanged registry: the same entries are served again, not rebuilt.
          expect(cache.entries()).toBe(entries);
        }
      }),
      RUNS,
    );
  });

  test('tools/list pages, concatenated, equal the full visible list (ToolsMethods)', () => {
    fc.assert(
      fc.property(
        // Sizes spread over 0..307 (fast-check would otherwise keep arrays small): 0 to 4 pages.
        fc
          .integer({ min: 0, max: 3 * TOOLS_PAGE_SIZE + 7 })
          .chain((n) => fc.array(fc.boolean(), { minLength: n, maxLength: n })),
        fc.array(fc.nat({ max: 3 * TOOLS_PAGE_SIZE }), { maxLength: 20, size: 'max' }),
        (hiddenFlags, removals) => {
          const registry = new ToolRegistry();
          const cache = new ToolListCache(registry, config);
          const methods = new ToolsMethods(
            registry,
            cache,
            new ToolVisibility(),
            new ToolExecutor(config, new UntracedRequestTracer()),
            new ToolLimitHints(),
            LISTS_NEVER_LAUNCH_TASKS,
          );
          hiddenFlags.forEach((hidden, i) => registry.register(tool(`t_${i}`, { hidden })));
          // Warm the cache, then change the registry: pages must reflect the change.
          cache.entries();
          for (const r of removals) registry.unregister(`t_${r}`);

          const expected = registry
            .list()
            .filter((t) => t.options.visibility !== 'hidden')
            .map((t) => t.name);
          const ctx = listContext();
          const seen: string[] = [];
          let cursor: string | undefined;
          let pages = 0;
          do {
            const page: { tools: ToolListEntry[]; nextCursor?: string } = methods.list(
              cursor === undefined ? {} : { cursor },
              ctx,
            );
            pages++;
            expect(page.tools.length).toBeLessThanOrEqual(TOOLS_PAGE_SIZE);
            if (page.nextCursor !== undefined) expect(page.tools).toHaveLength(TOOLS_PAGE_SIZE);
            seen.push(...page.tools.map((t) => t.name));
            cursor = page.nextCursor;
          } while (cursor !== undefined && pages <= 10);

          expect(cursor).toBeUndefined();
          expect(seen).toEqual(expected);
          expect(pages).toBe(Math.max(1, Math.ceil(expected.length / TOOLS_PAGE_SIZE)));
        },
      ),
      RUNS,
    );
  });

  test('paginate: pages of any size, concatenated, equal the list', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { maxLength: 120, size: 'max' }),
        fc.integer({ min: 1, max: 25 }),
        (all, pageSize) => {
          const seen: number[] = [];
          let cursor: string | undefined;
          let pages = 0;
          do {
            const page = paginate(all, cursor, pageSize);
            pages++;
            expect(page.items.length).toBeLessThanOrEqual(pageSize);
            seen.push(...page.items);
            cursor = page.nextCursor;
          } while (cursor !== undefined && pages <= all.length + 1);

          expect(cursor).toBeUndefined();
          expect(seen).toEqual(all);
          expect(pages).toBe(Math.max(1, Math.ceil(all.length / pageSize)));
        },
      ),
      RUNS,
    );
  });

  test("a linked skill's text is listed only for a client that may read the skill, from one cache", () => {
    const registry = new ToolRegistry();
    const skills = { version: 1, skillBody: (ref: string) => `body of ${ref}\n` };
    const cache = new ToolListCache(registry, config, skills);
    const rules = new GovernanceRules({
      ...config,
      governance: {
        ...config.governance,
        clients: { reader: {}, blind: { deny: ['skill://trading/*'] } },
      },
    });
    const methods = new ToolsMethods(
      registry,
      cache,
      new ToolVisibility(new VisibilityPolicy(rules)),
      new ToolExecutor(config, new UntracedRequestTracer()),
      new ToolLimitHints(new QuotaPolicy(rules)),
      LISTS_NEVER_LAUNCH_TASKS,
    );
    const linked = tool('linked');
    registry.register({ ...linked, options: { ...linked.options, skill: 'trading/monitor' } });
    const describe = (clientId: string) => {
      const ctx = { ...listContext(), clientId };
      return (methods.list({}, ctx) as { tools: ToolListEntry[] }).tools[0].description;
    };
    for (let i = 0; i < 2; i++) {
      expect(describe('reader')).toBe('tool linked\n\nbody of trading/monitor');
      expect(describe('blind')).toBe('tool linked');
    }
  });

  test("each client's limits, under the rules in force, on entries shared through one cache", () => {
    const registry = new ToolRegistry();
    const cache = new ToolListCache(registry, config);
    const rules = new GovernanceRules({
      ...config,
      governance: {
        ...config.governance,
        clients: {
          tight: {
            quota: { max_calls_per_minute: 7 },
            tool_limits: { 'lim_*': { max_calls_per_day: 3 } },
          },
        },
      },
    });
    const methods = new ToolsMethods(
      registry,
      cache,
      new ToolVisibility(new VisibilityPolicy(rules)),
      new ToolExecutor(config, new UntracedRequestTracer()),
      new ToolLimitHints(new QuotaPolicy(rules)),
      LISTS_NEVER_LAUNCH_TASKS,
    );
    const limited = tool('lim_a');
    registry.register({
      ...limited,
      options: { ...limited.options, rateLimits: { maxCallsPerMinute: 5 } },
    });
    const limitsOf = (clientId: string) => {
      const ctx = { ...listContext(), clientId };
      const [entry] = (methods.list({}, ctx) as { tools: ToolListEntry[] }).tools;
      return entry._meta[META_RATE_LIMITS];
    };
    const { default_quota: quota } = config.governance;
    expect(limitsOf('tight')).toEqual({ maxCallsPerMinute: 5, maxCallsPerDay: 3 });
    expect(limitsOf('other')).toEqual({
      maxCallsPerMinute: 5,
      maxCallsPerDay: quota.max_calls_per_day,
    });
    expect(limitsOf('tight')).toEqual({ maxCallsPerMinute: 5, maxCallsPerDay: 3 });
    // The shared cached entry carries no client's numbers.
    expect(cache.entries().get('lim_a')?.entry._meta).not.toHaveProperty(META_RATE_LIMITS);

    rules.replace(
      { ...rules.current, clients: { tight: { quota: { max_calls_per_minute: 2 } } } },
      'admin',
    );
    expect(limitsOf('tight')).toEqual({
      maxCallsPerMinute: 2,
      maxCallsPerDay: quota.max_calls_per_day,
    });
    rules.replace({ ...rules.current, enabled: false }, 'admin');
    expect(limitsOf('tight')).toEqual({ maxCallsPerMinute: 5 });
  });
});
