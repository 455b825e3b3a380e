import { approvalFor, costFor, isToolExposed } from './upstream-tool.policy';
import { UpstreamRecord } from './upstream-record';

function record(overrides: Partial<UpstreamRecord>): UpstreamRecord {
  return {
    version: 1,
    server_id: 'gh',
    display_name: 'gh',
    transport: 'stdio',
    stdio: { command: 'x', args: [], env: {}, env_from: [] },
    tool_namespace: 'gh',
    allowed_tools: [],
    denied_tools: [],
    approval_policy: { default: 'never', tools: {} },
    budgets: { tool_timeout_ms: 1000, max_concurrency: 1, max_tool_output_bytes: 1024 },
    cost: { default: 0, tools: {} },
    relay: { resources: false, prompts: false },
    required: false,
    warm: false,
    idle_timeout_seconds: 0,
    file: 'gh.yaml',
    ...overrides,
  };
}

describe('upstream tool policy', () => {
  it('exposes nothing until a pattern allows it, and deny wins over allow', () => {
    expect(isToolExposed(record({}), 'search_issues')).toBe(false);
    const r = record({
      allowed_tools: ['search_*', 'get_issue'],
      denied_tools: ['search_private*'],
    });
    expect(isToolExposed(r, 'search_issues')).toBe(true);
    expect(isToolExposed(r, 'get_issue')).toBe(true);
    expect(isToolExposed(r, 'search_private_repos')).toBe(false);
    expect(isToolExposed(r, 'delete_repo')).toBe(false);
  });

  it('asks for approval when any matching pattern says always, whatever the order', () => {
    const r = record({
      approval_policy: { default: 'always', tools: { 'get_*': 'never', 'get_secret*': 'always' } },
    });
    expect(approvalFor(r, 'get_issue')).toBe('never');
    expect(approvalFor(r, 'get_secret_key')).toBe('always');
    expect(approvalFor(r, 'create_issue')).toBe('always');
    expect(approvalFor(record({}), 'anything')).toBe('never');
  });

  it('charges the highest matching cost, else the default', () => {
    const r = record({ cost: { default: 0.5, tools: { 'search_*': 2, '*_all': 5 } } });
    expect(costFor(r, 'search_all')).toBe(5);
    expect(costFor(r, 'search_issues')).toBe(2);
    expect(costFor(r, 'get_issue')).toBe(0.5);
  });
});
