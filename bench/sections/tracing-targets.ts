import { join } from 'node:path';
import { ChildServer } from '../lib/child';
import { BenchContext, echoModule } from '../lib/context';
import { EchoEndpoint } from '../lib/echo-call';
import { startGateway } from '../lib/gateway';
import { mcpHeaders, openSession } from '../lib/mcp-http';
import { TracingTargetKey } from '../report/results';
import { BENCH_TOOL } from '../shared/bench-tool';

export const TRACING_LABELS: Record<TracingTargetKey, string> = {
  off: 'tracing off (the default: the untraced request tracer)',
  on: 'tracing on, sample_ratio 1, exporting to the OTLP sink',
  unsampled: 'tracing on, sample_ratio 0 (spans made, none recorded or exported)',
};

export interface TracingTarget extends EchoEndpoint {
  key: TracingTargetKey;
  gateway: ChildServer;
}

/** Tracing settings of each target, as MCP_SERVER_* variables. */
function tracingEnv(key: TracingTargetKey, endpoint: string): Record<string, string> {
  if (key === 'off') return { MCP_SERVER_TRACING_ENABLED: 'false' };
  return {
    MCP_SERVER_TRACING_ENABLED: 'true',
    MCP_SERVER_TRACING_ENDPOINT: endpoint,
    MCP_SERVER_TRACING_SAMPLE_RATIO: key === 'on' ? '1' : '0',
  };
}

/**
 * Three processes of gateway (a)'s setup (governance, SQLite ledger, the echo
 * module) that differ only in `tracing.*`, each called through a session of
 * its own. Starts what it can and stops it all if one fails.
 */
export async function startTracingTargets(
  ctx: BenchContext,
  endpoint: string,
): Promise<TracingTarget[]> {
  const targets: TracingTarget[] = [];
  try {
    for (const key of ['off', 'on', 'unsampled'] as const) {
      const scratch = ctx.compiled.scratch(join('tracing', key));
      const { server, port } = await startGateway({
        name: `gateway-tracing-${key}`,
        governance: true,
        ledger: { driver: 'sqlite', path: join(scratch, 'ledger.db') },
        modules: [echoModule(ctx)],
        skillsDir: ctx.compiled.scratch('tracing-empty-skills'),
        scratch,
        transport: 'http',
        nodeFlags: ctx.options.nodeFlags,
        extraEnv: tracingEnv(key, endpoint),
      });
      const url = `http://127.0.0.1:${port}/mcp`;
      targets.push({
        key,
        label: TRACING_LABELS[key],
        url,
        headers: mcpHeaders(await openSession(url)),
        tool: BENCH_TOOL.name,
        gateway: server,
      });
    }
    return targets;
  } catch (err) {
    await stopTracingTargets(targets);
    throw err;
  }
}

/** SIGTERM: each gateway flushes its queued spans to the sink as it stops. */
export async function stopTracingTargets(targets: readonly TracingTarget[]): Promise<void> {
  await Promise.all(targets.map((target) => target.gateway.stop()));
}
