import { num, ratio, table } from './format';
import { HttpResults, TracingCell, TracingResults, TracingTargetKey } from './results';
import { MIN_TRACING_ON_RPS } from './targets';

/** BENCHMARKS.md's tracing section: what exporting every span costs, and what tracing off costs. */
export function tracingSection(tracing: TracingResults, http: HttpResults | undefined): string {
  const runs = `${tracing.reps} ${tracing.reps === 1 ? 'run' : 'runs'} per cell`;
  return [
    '## 5. Tracing (OpenTelemetry, OTLP/HTTP)',
    '',
    [
      "tools/call of `bench_echo` on gateway (a)'s setup (governance, SQLite ledger) in three processes",
      'that differ only in `tracing.*`: off (the default), on with `sample_ratio: 1` exporting every span',
      '(the request, governance, handler and ledger write: 4 per call) with the default batch settings and',
      'the default `tracing.protocol` (OTLP/HTTP protobuf) to a sink in the bench process (a real HTTP',
      'server that counts the spans without decoding them, then discards them), and on with',
      '`sample_ratio: 0`. Requests bring no traceparent, so every one starts a trace. autocannon,',
      `${tracing.durationSeconds} s per run, ${runs}, targets alternating; req/s, p50, p99 and the`,
      "gateway's CPU time per request are medians over the runs.",
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
        'Gateway CPU µs/request',
        'Requests',
        'Non-2xx',
        'Errors',
        'Mismatches',
      ],
      tracing.cells.map((cell) => [
        cell.connections,
        tracing.labels[cell.target],
        num(cell.rps),
        cell.runs.map((r) => num(r.requestsPerSecond)).join(', '),
        num(cell.p50Ms),
        num(cell.p99Ms),
        num(cell.gatewayCpuUs),
        cell.requests.toLocaleString('en-US'),
        cell.non2xx,
        cell.errors,
        cell.mismatches,
      ]),
    ),
    '',
    table(
      ['Conns', 'Compared', 'req/s ratio', 'p99 ratio', 'Extra gateway CPU µs/request', 'Target'],
      ratioRows(tracing.cells, http),
    ),
    '',
    [
      `The sink received ${num(tracing.spansPerTracedRequest)} spans per request of the traced gateway`,
      `(${tracing.exports.toLocaleString('en-US')} export requests; 4 means none was dropped: past`,
      '`tracing.max_queue_size` waiting spans, new ones are dropped rather than slowing calls).',
      'Tracing off runs the untraced request tracer, the code every other section measures',
      http
        ? '(its row against gateway (a) of section 1, the same setup measured earlier in the run).'
        : '(section 1 did not run, so there is no gateway (a) to compare it with).',
    ].join(' '),
    '',
  ].join('\n');
}

function ratioRows(
  cells: readonly TracingCell[],
  http: HttpResults | undefined,
): Array<Array<string | number>> {
  const find = (key: TracingTargetKey, connections: number) =>
    cells.find((cell) => cell.target === key && cell.connections === connections);
  return [...new Set(cells.map((cell) => cell.connections))].flatMap((connections) => {
    const off = find('off', connections);
    if (!off) return [];
    const rows: Array<Array<string | number>> = [];
    const compare = (cell: TracingCell | undefined, compared: string, target: string) => {
      if (!cell) return;
      rows.push([
        connections,
        compared,
        ratio(cell.rps / off.rps),
        ratio(cell.p99Ms / off.p99Ms),
        num(cell.gatewayCpuUs - off.gatewayCpuUs),
        target,
      ]);
    };
    compare(
      find('on', connections),
      'on, every span exported / off',
      `req/s ≥ ${MIN_TRACING_ON_RPS}×`,
    );
    compare(find('unsampled', connections), 'on, sample_ratio 0 / off', 'none');
    const a = http?.cells.find(
      (cell) =>
        cell.target === 'a' && cell.method === 'tools/call' && cell.connections === connections,
    );
    if (a) {
      rows.push([
        connections,
        'off / gateway (a) of section 1 (untraced baseline)',
        ratio(off.rps / a.rps),
        ratio(off.p99Ms / a.p99Ms),
        'n/a',
        '≈ 1× (none)',
      ]);
    }
    return rows;
  });
}
