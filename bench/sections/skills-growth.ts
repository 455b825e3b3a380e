import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { childEnv } from '../lib/child-env';
import { BenchContext } from '../lib/context';
import { startGateway } from '../lib/gateway';
import { progress } from '../lib/log';
import { mcpHeaders, openSession } from '../lib/mcp-http';
import { pagedListTimings } from '../lib/paged-timings';
import { writeSkillsDir } from '../lib/skills-dir';
import { median, msSince } from '../lib/stats';
import { GrowthResults } from '../report/results';

const CATEGORIES = 50;
const SCAN_REPEATS = 3;

/** The skills catalog at N skills: the gateway's scan, its start-up, and resources/list. */
export async function runSkillsGrowth(
  ctx: BenchContext,
): Promise<NonNullable<GrowthResults['skills']>> {
  const count = ctx.options.skillCount;
  const skillsDir = ctx.compiled.scratch('skills-growth-dir');
  progress(`skills: writing ${count} SKILL.md files in ${CATEGORIES} categories`);
  writeSkillsDir(skillsDir, count, CATEGORIES);

  progress('skills: timing the catalog scan (dist/resources/skill-scanner, plain node)');
  const scanned = JSON.parse(
    execFileSync(
      process.execPath,
      [
        ...ctx.options.nodeFlags,
        ctx.compiled.js('fixtures/scan-skills.ts'),
        skillsDir,
        String(SCAN_REPEATS),
      ],
      { encoding: 'utf8', maxBuffer: 1024 * 1024, env: childEnv() },
    ),
  ) as { skills: number; warnings: number; ms: number[] };
  if (scanned.skills !== count || scanned.warnings > 0) {
    throw new Error(
      `skills scan found ${scanned.skills} skills, ${scanned.warnings} warnings (expected ${count}, 0)`,
    );
  }

  progress('skills: starting the gateway on that directory');
  const scratch = ctx.compiled.scratch('skills-growth');
  const start = process.hrtime.bigint();
  const { server, port } = await startGateway({
    name: 'gateway-skills',
    governance: true,
    ledger: { driver: 'sqlite', path: join(scratch, 'ledger.db') },
    modules: [],
    skillsDir,
    scratch,
    transport: 'http',
    nodeFlags: ctx.options.nodeFlags,
  });
  const startupMs = msSince(start);
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    const timings = await pagedListTimings(
      url,
      mcpHeaders(await openSession(url)),
      'resources/list',
      'resources',
    );
    return {
      count,
      categories: CATEGORIES,
      scanMs: { first: scanned.ms[0], median: median(scanned.ms.slice(1)) },
      startupMs,
      timings,
    };
  } finally {
    await server.stop();
  }
}
