import { ToolNamingOptions } from './tool-naming.options';
import { UpstreamRecord } from './upstream-record';
import { UpstreamToolNames } from './upstream-tool-names';

const OPTIONS: ToolNamingOptions = { separator: '__', allowDots: false };

function record(server_id: string, overrides: Partial<UpstreamRecord> = {}): UpstreamRecord {
  return {
    version: 1,
    server_id,
    display_name: server_id,
    transport: 'stdio',
    stdio: { command: 'x', args: [], env: {}, env_from: [] },
    tool_namespace: server_id,
    allowed_tools: ['*'],
    denied_tools: [],
    approval_policy: { default: 'never', tools: {} },
    budgets: { tool_timeout_ms: 1000, max_concurrency: 1, max_tool_output_bytes: 1024 },
    cost: { default: 0, tools: {} },
    relay: { resources: false, prompts: false },
    required: false,
    warm: false,
    idle_timeout_seconds: 0,
    file: `${server_id}.yaml`,
    ...overrides,
  };
}

function reasons(names: UpstreamToolNames): string[] {
  return names.refusals.map((refusal) => refusal.reason);
}

describe('UpstreamToolNames', () => {
  it('names every allowed tool and looks each name up', () => {
    const names = UpstreamToolNames.build(
      [
        { record: record('github'), tools: ['search', 'get_issue'] },
        { record: record('fs', { tool_namespace: 'files' }), tools: ['read'] },
      ],
      [{ name: 'orders_place', origin: 'OrdersCapability.placeOrder' }],
      OPTIONS,
    );
    expect(names.size).toBe(3);
    expect(names.lookup('github__search')).toEqual({ serverId: 'github', tool: 'search' });
    expect(names.lookup('files__read')).toEqual({ serverId: 'fs', tool: 'read' });
    expect(names.lookup('fs__read')).toBeUndefined();
    expect(names.lookup('orders_place')).toBeUndefined();
    expect(names.entries()).toEqual([
      { name: 'github__search', serverId: 'github', tool: 'search', shortened: false },
      { name: 'github__get_issue', serverId: 'github', tool: 'get_issue', shortened: false },
      { name: 'files__read', serverId: 'fs', tool: 'read', shortened: false },
    ]);
    expect(names.refusals).toEqual([]);
  });

  it('uses the configured separator', () => {
    const names = UpstreamToolNames.build([{ record: record('gh'), tools: ['search'] }], [], {
      separator: '-',
      allowDots: false,
    });
    expect(names.lookup('gh-search')).toEqual({ serverId: 'gh', tool: 'search' });
  });

  it('maps a shortened name back to the server and the full upstream name', () => {
    const long = `${'very_long_tool_name_'.repeat(5)}end`;
    const names = UpstreamToolNames.build([{ record: record('gh'), tools: [long] }], [], OPTIONS);
    const [entry] = names.entries();
    expect(entry.shortened).toBe(true);
    expect(entry.name).toHaveLength(64);
    expect(names.lookup(entry.name)).toEqual({ serverId: 'gh', tool: long });
  });

  it('exposes nothing by default, and deny beats allow', () => {
    const names = UpstreamToolNames.build(
      [
        { record: record('closed', { allowed_tools: [] }), tools: ['search'] },
        {
          record: record('gh', {
            allowed_tools: ['search_*', 'delete_repo'],
            denied_tools: ['delete_*'],
          }),
          tools: ['search_issues', 'delete_repo', 'get_issue'],
        },
      ],
      [],
      OPTIONS,
    );
    expect(names.entries().map((entry) => entry.name)).toEqual(['gh__search_issues']);
    expect(names.refusals).toEqual([]);
  });

  it('refuses tool names clients would refuse, only among allowed tools', () => {
    const names = UpstreamToolNames.build(
      [
        {
          record: record('fs', { denied_tools: ['secret.*'] }),
          tools: ['read', 'files.list', 'secret.key'],
        },
      ],
      [],
      OPTIONS,
    );
    expect(names.entries().map((entry) => entry.name)).toEqual(['fs__read']);
    expect(names.refusals).toHaveLength(1);
    expect(names.refusals[0]).toMatchObject({ serverId: 'fs', tool: 'files.list' });
    expect(names.refusals[0].reason).toMatch(/^upstream "fs": tool name "files.list" contains "."/);
  });

  it('exposes dotted names when allowDots is on', () => {
    const names = UpstreamToolNames.build([{ record: record('fs'), tools: ['files.list'] }], [], {
      separator: '.',
      allowDots: true,
    });
    expect(names.lookup('fs.files.list')).toEqual({ serverId: 'fs', tool: 'files.list' });
  });

  it('refuses a name two upstreams claim, naming both, and exposes neither', () => {
    // Namespaces may contain the separator, so two servers can produce one name.
    const names = UpstreamToolNames.build(
      [
        { record: record('a'), tools: ['b__c', 'only_a'] },
        { record: record('a__b'), tools: ['c'] },
      ],
      [],
      OPTIONS,
    );
    expect(names.lookup('a__b__c')).toBeUndefined();
    expect(names.lookup('a__only_a')).toEqual({ serverId: 'a', tool: 'only_a' });
    expect(names.refusals.map(({ serverId, tool }) => ({ serverId, tool }))).toEqual([
      { serverId: 'a', tool: 'b__c' },
      { serverId: 'a__b', tool: 'c' },
    ]);
    for (const reason of reasons(names)) {
      expect(reason).toContain('exposed name "a__b__c" is claimed by');
      expect(reason).toContain('upstream "a" tool "b__c"');
      expect(reason).toContain('upstream "a__b" tool "c"');
    }
  });

  it('refuses a literal name that equals the shortened name of another tool', () => {
    const long = `ab__${'x'.repeat(100)}`;
    const shortened = UpstreamToolNames.build(
      [{ record: record('gh'), tools: [long] }],
      [],
      OPTIONS,
    ).entries()[0].name;
    const names = UpstreamToolNames.build(
      [
        { record: record('gh'), tools: [long] },
        { record: record('gh__ab'), tools: [shortened.slice('gh__ab__'.length)] },
      ],
      [],
      OPTIONS,
    );
    expect(names.size).toBe(0);
    expect(reasons(names)).toHaveLength(2);
  });

  it('keeps a local tool and refuses the upstream one, naming both', () => {
    const names = UpstreamToolNames.build(
      [{ record: record('orders'), tools: ['place', 'list'] }],
      [{ name: 'orders__place', origin: 'OrdersCapability.place' }],
      OPTIONS,
    );
    expect(names.lookup('orders__place')).toBeUndefined();
    expect(names.lookup('orders__list')).toEqual({ serverId: 'orders', tool: 'list' });
    expect(reasons(names)).toEqual([
      'exposed name "orders__place" is a local tool (OrdersCapability.place); upstream "orders" tool "place" is not exposed',
    ]);
  });

  it('refuses a tool an upstream lists twice', () => {
    const names = UpstreamToolNames.build(
      [{ record: record('gh'), tools: ['search', 'get', 'search'] }],
      [],
      OPTIONS,
    );
    expect(names.entries().map((entry) => entry.name)).toEqual(['gh__get']);
    expect(reasons(names)).toEqual([
      'upstream "gh" lists tool "search" more than once; it is not exposed',
    ]);
  });

  it('refuses a whole server that lists more than 10,000 tools', () => {
    const many = Array.from({ length: 10_001 }, (_, i) => `tool_${i}`);
    const names = UpstreamToolNames.build(
      [
        { record: record('huge'), tools: many },
        { record: record('gh'), tools: many.slice(0, 10_000) },
      ],
      [],
      OPTIONS,
    );
    expect(names.size).toBe(10_000);
    expect(names.lookup('huge__tool_0')).toBeUndefined();
    expect(names.refusals).toEqual([
      {
        serverId: 'huge',
        reason:
          'upstream "huge" lists 10001 tools, more than the limit of 10000; none of its tools is exposed',
      },
    ]);
  });
});
