import { num, ratio, table } from './format';
import { FederationCell, FederationResults } from './results';

/** BENCHMARKS.md's federation section (an upstream echo through the gateway, and idle upstreams' RSS). */
export function federationSection(federation: FederationResults): string {
  const rows = federation.cells.map((cell) => [
    cell.connections,
    federation.labels[cell.target],
    num(cell.rps),
    cell.runs.map((r) => num(r.requestsPerSecond)).join(', '),
    num(cell.p50Ms),
    num(cell.p99Ms),
    cell.requests.toLocaleString('en-US'),
    cell.non2xx,
    cell.errors,
    cell.mismatches,
  ]);
  const { idle } = federation;
  return [
    '## 3. Federation (an upstream MCP server over stdio)',
    '',
    [
      "tools/call of the same echo three ways: the gateway's own `bench_echo`; `fed__bench_echo`, the",
      'echo of an SDK stdio upstream (bench/baselines/sdk-stdio-server.ts: McpServer +',
      'StdioServerTransport, one child of the gateway, `budgets.max_concurrency`',
      `${federation.maxConcurrency}) called through the same governed gateway with its SQLite ledger on;`,
      "and the SDK's stateless Streamable HTTP server (baseline (d)) called directly. autocannon,",
      `${federation.durationSeconds} s per run, ${federation.reps} ${federation.reps === 1 ? 'run' : 'runs'} per cell with the three targets`,
      'alternating; req/s, p50 and p99 are medians over the runs. The gateway is one process for both',
      `of its targets (largest VmRSS after any run: ${num(federation.gatewayMaxRssMb)} MiB).`,
    ].join(' '),
    '',
    table(
      [
        'Conns',
        'Target',
        'req/s',
        'req/s per run',
        'p50 ms',
        'p99 ms',
        'Requests',
        'Non-2xx',
        'Errors',
        'Mismatches',
      ],
      rows,
    ),
    '',
    table(
      ['Conns', 'federated / local req/s', 'federated / local p99', 'federated / SDK direct req/s'],
      ratioRows(federation.cells),
    ),
    '',
    [
      `RSS of a governed gateway with ${idle.upstreams} idle stdio upstreams (the same SDK stdio server,`,
      `\`warm: true\`), read 2 s after every upstream tool was listed (${num(idle.listedAfterMs)} ms after the`,
      "gateway's first answer), with no call made; beside the same gateway with no upstream, read the",
      'same way. The upstream processes are counted apart: every process under the gateway, each upstream being a small sh guard (docs/federation.md, stdio children) and the server it runs.',
    ].join(' '),
    '',
    table(
      ['Gateway', 'Gateway RSS MiB', 'Upstream processes', 'Their RSS MiB together'],
      [
        ['no upstream', num(idle.noUpstreamRssMb), 0, '-'],
        [
          `${idle.upstreams} idle stdio upstreams`,
          num(idle.gatewayRssMb),
          idle.children,
          num(idle.childrenRssMb),
        ],
      ],
    ),
    '',
  ].join('\n');
}

function ratioRows(cells: readonly FederationCell[]): Array<Array<string | number>> {
  return cells
    .filter((cell) => cell.target === 'federated')
    .map((fed) => {
      const other = (target: FederationCell['target']) =>
        cells.find((cell) => cell.target === target && cell.connections === fed.connections);
      const local = other('local');
      const sdk = other('sdk-direct');
      return [
        fed.connections,
        local ? ratio(fed.rps / local.rps) : 'n/a',
        local ? ratio(fed.p99Ms / local.p99Ms) : 'n/a',
        sdk ? ratio(fed.rps / sdk.rps) : 'n/a',
      ];
    });
}
