import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChildServer } from '../lib/child';
import { BenchContext, echoModule } from '../lib/context';
import { startGateway } from '../lib/gateway';
import { Headers, mcpHeaders, openSession, rpc } from '../lib/mcp-http';
import { HttpTargetKey } from '../report/results';

export interface HttpTarget {
  key: HttpTargetKey;
  label: string;
  server: ChildServer;
  url: string;
  headers: Headers;
}

export const TARGET_LABELS: Record<HttpTargetKey, string> = {
  a: '(a) gateway, governance + ledger (SQLite)',
  b: '(b) gateway, governance + ledger off',
  c: '(c) bare NestJS controller',
  d: '(d) SDK stateless Streamable HTTP',
  e: '(e) raw node:http',
};

/**
 * Starts the five HTTP targets, each in its own process, all with the
 * bench's node flags. The gateways get a session (initialize once); the bare
 * Nest controller and raw node:http answer tools/list with exactly what
 * gateway (a) answered.
 */
export async function startHttpTargets(ctx: BenchContext): Promise<HttpTarget[]> {
  const scratch = ctx.compiled.scratch('http');
  const skillsDir = ctx.compiled.scratch('http-empty-skills');
  const targets: HttpTarget[] = [];
  try {
    for (const key of ['a', 'b'] as const) {
      const { server, port } = await startGateway({
        name: `gateway-${key}`,
        governance: key === 'a',
        ledger:
          key === 'a' ? { driver: 'sqlite', path: join(scratch, 'ledger.db') } : { driver: 'off' },
        modules: [echoModule(ctx)],
        skillsDir,
        scratch,
        transport: 'http',
        nodeFlags: ctx.options.nodeFlags,
      });
      const url = `http://127.0.0.1:${port}/mcp`;
      targets.push({
        key,
        label: TARGET_LABELS[key],
        server,
        url,
        headers: mcpHeaders(await openSession(url)),
      });
    }
    const canned = join(scratch, 'canned-results.json');
    const list = await rpc(targets[0].url, targets[0].headers, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
    });
    writeFileSync(canned, JSON.stringify({ 'tools/list': list.message?.result }));
    const baselines: Array<[HttpTargetKey, string, string]> = [
      ['c', 'nest-bare', 'baselines/nest-bare-server.ts'],
      ['d', 'sdk-http', 'baselines/sdk-http-server.ts'],
      ['e', 'node-http', 'baselines/node-http-server.ts'],
    ];
    for (const [key, name, script] of baselines) {
      const { server, port } = await ChildServer.start({
        name,
        nodeFlags: ctx.options.nodeFlags,
        args: [ctx.compiled.js(script)],
        env: { BENCH_CANNED_RESULTS: canned },
        logFile: join(scratch, `${name}.stderr.log`),
      });
      targets.push(baseline(key, server, port));
    }
    return targets;
  } catch (err) {
    await stopHttpTargets(targets);
    throw err;
  }
}

export async function stopHttpTargets(targets: readonly HttpTarget[]): Promise<void> {
  await Promise.all(targets.map((target) => target.server.stop()));
}

function baseline(key: HttpTargetKey, server: ChildServer, port: number): HttpTarget {
  return {
    key,
    label: TARGET_LABELS[key],
    server,
    url: `http://127.0.0.1:${port}/mcp`,
    headers: mcpHeaders(),
  };
}
