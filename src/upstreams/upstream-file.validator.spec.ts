import { scanRegistry } from './registry.scanner';
import { httpYaml, RegistryDirFixture, stdioYaml } from './testing/registry-dir.fixture';
import { BUDGET_BOUNDS } from './upstream-registry.limits';

let fixture: RegistryDirFixture;

beforeEach(() => {
  fixture = new RegistryDirFixture();
});

afterEach(() => fixture.remove());

/** The problems of the one file written, or [] when it loaded. */
function problemsOf(text: string, strict = true): string[] {
  fixture.write('server.yaml', text);
  const registry = scanRegistry(fixture.dir, {}, { strict });
  return registry.rejected.flatMap((r) => r.problems);
}

function loaded(text: string) {
  fixture.write('server.yaml', text);
  const registry = scanRegistry(fixture.dir, {}, { strict: true });
  expect(registry.rejected).toEqual([]);
  return registry.servers[0];
}

describe('registry file validation', () => {
  it('fills in every default of a minimal stdio record', () => {
    expect(loaded(stdioYaml('fs'))).toEqual({
      version: 1,
      server_id: 'fs',
      display_name: 'fs',
      transport: 'stdio',
      stdio: { command: 'node', args: ['server.js'], env: {}, env_from: [] },
      tool_namespace: 'fs',
      allowed_tools: [],
      denied_tools: [],
      approval_policy: { default: 'never', tools: {} },
      budgets: {
        tool_timeout_ms: BUDGET_BOUNDS.toolTimeoutMs.default,
        max_concurrency: BUDGET_BOUNDS.maxConcurrency.default,
        max_tool_output_bytes: BUDGET_BOUNDS.maxToolOutputBytes.default,
      },
      cost: { default: 0, tools: {} },
      relay: { resources: false, prompts: false },
      required: false,
      warm: false,
      idle_timeout_seconds: 0,
      file: 'server.yaml',
    });
  });

  it.each([
    ['Upper', 'upper case'],
    ['-leading-dash', 'a leading dash'],
    ['a'.repeat(33), '33 characters'],
    ['mcp.fs', 'a dot'],
  ])('refuses server_id %j (%s)', (id) => {
    expect(problemsOf(stdioYaml(JSON.stringify(id)))).toEqual([
      'server_id: must be 1-32 characters of a-z, 0-9, "_" and "-", starting with a letter or digit',
    ]);
  });

  it('requires version: 1', () => {
    expect(problemsOf(stdioYaml('fs').replace('version: 1\n', ''))).toEqual([
      'version: is required; write version: 1',
    ]);
    expect(problemsOf(stdioYaml('fs').replace('version: 1', 'version: 2'))).toEqual([
      'version: must be 1 (the only registry file version this gateway reads)',
    ]);
  });

  it('refuses a transport it does not know', () => {
    expect(problemsOf(stdioYaml('fs').replace('transport: stdio', 'transport: grpc'))).toEqual([
      'transport: must be one of stdio, streamable_http, http_sse_legacy',
    ]);
  });

  it('requires the stdio block for transport stdio, and refuses the http block beside it', () => {
    expect(problemsOf('version: 1\nserver_id: fs\ntransport: stdio\n')).toEqual([
      'stdio: is required when transport is stdio',
    ]);
    expect(problemsOf(stdioYaml('fs', 'http: { url: "https://x.example" }'))).toEqual([
      'http: is only for transport streamable_http or http_sse_legacy; remove it',
    ]);
  });

  it('requires the http block for the http transports', () => {
    const text = 'version: 1\nserver_id: gh\ntransport: http_sse_legacy\n';
    expect(problemsOf(text)).toEqual(['http: is required when transport is http_sse_legacy']);
    expect(problemsOf(`${text}http: { url: "https://x.example/sse" }\n`)).toEqual([]);
  });

  it('rejects an unknown key, naming it, when strict', () => {
    expect(problemsOf(stdioYaml('fs', '  shell: true', 'colour: blue'))).toEqual([
      'colour: is not a known registry key',
      'stdio.shell: is not a known registry key',
    ]);
  });

  it('loads a file with unknown keys when not strict, warning with file and key', () => {
    fixture.write('server.yaml', stdioYaml('fs', 'colour: blue'));
    const registry = scanRegistry(fixture.dir, {}, { strict: false });
    expect(registry.servers.map((s) => s.server_id)).toEqual(['fs']);
    expect(registry.warnings).toEqual([
      'server.yaml: colour: is not a known registry key (ignored)',
    ]);
    expect(registry.servers[0]).not.toHaveProperty('colour');
  });

  it('still rejects real problems when not strict', () => {
    expect(problemsOf(stdioYaml('fs', 'colour: blue', 'warm: sometimes'), false)).toEqual([
      'warm: must be a boolean value',
    ]);
  });

  it('checks budgets against their bounds', () => {
    const text = stdioYaml(
      'fs',
      'budgets: { tool_timeout_ms: 10, max_concurrency: 1000, max_tool_output_bytes: 1.5 }',
    );
    expect(problemsOf(text)).toEqual([
      `budgets.tool_timeout_ms: must not be less than ${BUDGET_BOUNDS.toolTimeoutMs.min}`,
      `budgets.max_concurrency: must not be greater than ${BUDGET_BOUNDS.maxConcurrency.max}`,
      'budgets.max_tool_output_bytes: must be an integer number',
    ]);
  });

  it('bounds idle_timeout_seconds: 0 (never) to one day, whole seconds', () => {
    expect(loaded(stdioYaml('fs', 'idle_timeout_seconds: 300'))?.idle_timeout_seconds).toBe(300);
    expect(problemsOf(stdioYaml('fs', 'idle_timeout_seconds: -1'))).toEqual([
      'idle_timeout_seconds: must not be less than 0',
    ]);
    expect(problemsOf(stdioYaml('fs', 'idle_timeout_seconds: 86401'))).toEqual([
      'idle_timeout_seconds: must not be greater than 86400',
    ]);
    expect(problemsOf(stdioYaml('fs', 'idle_timeout_seconds: 0.5'))).toEqual([
      'idle_timeout_seconds: must be an integer number',
    ]);
  });

  it('bounds list and mapping sizes', () => {
    const args = JSON.stringify(Array.from({ length: 257 }, (_, i) => `a${i}`));
    const headers = JSON.stringify(
      Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`X-H${i}`, 'v'])),
    );
    const patterns = JSON.stringify(Array.from({ length: 257 }, (_, i) => `t${i}`));
    expect(
      problemsOf(stdioYaml('fs', `allowed_tools: ${patterns}`).replace('[server.js]', args)),
    ).toEqual([
      'stdio.args: must contain no more than 256 elements',
      'allowed_tools: must contain no more than 256 elements',
    ]);
    expect(problemsOf(httpYaml('gh', `  headers: ${headers}`))).toEqual([
      'http.headers: has 65 entries; at most 64 are allowed',
    ]);
  });

  it('names a bad key of a mapping without quoting any value', () => {
    expect(problemsOf(httpYaml('gh', '  headers: { "Bad Header": "s3cret-value" }'))).toEqual([
      'http.headers: key "Bad Header" is not a valid HTTP header name',
    ]);
    expect(problemsOf(stdioYaml('fs', '  env: { "1X": "s3cret-value" }'))).toEqual([
      'stdio.env: key "1X" must be an environment variable name (letters, digits, "_")',
    ]);
  });

  it('accepts approval_policy and cost in their short and long forms', () => {
    expect(loaded(stdioYaml('fs', 'approval_policy: always', 'cost: 1.5'))).toMatchObject({
      approval_policy: { default: 'always', tools: {} },
      cost: { default: 1.5, tools: {} },
    });
    const long = stdioYaml(
      'fs',
      'approval_policy: { tools: { "write_*": always } }',
      'cost: { tools: { "search_*": 3 } }',
    );
    expect(loaded(long)).toMatchObject({
      approval_policy: { default: 'never', tools: { 'write_*': 'always' } },
      cost: { default: 0, tools: { 'search_*': 3 } },
    });
  });

  it('refuses approval_policy and cost values outside their forms', () => {
    expect(problemsOf(stdioYaml('fs', 'approval_policy: sometimes', 'cost: cheap'))).toEqual([
      'approval_policy: must be never, always, or a mapping { default, tools }',
      'cost: must be a number or a mapping { default, tools }',
    ]);
    expect(
      problemsOf(stdioYaml('fs', 'approval_policy: { tools: { "x": maybe } }', 'cost: -1')),
    ).toEqual([
      'approval_policy.tools: value of "x" must be one of never, always',
      'cost.default: must not be less than 0',
    ]);
  });

  it('refuses a file that is not a mapping', () => {
    expect(problemsOf('- just\n- a list\n')).toEqual(['must hold a mapping of registry keys']);
  });

  it('refuses keys that would reach Object.prototype', () => {
    expect(problemsOf(stdioYaml('fs', '  env: { constructor: x }'))).toEqual([
      'stdio.env.constructor: is a reserved name (Object.prototype member names and "prototype" cannot be keys)',
    ]);
  });
});
