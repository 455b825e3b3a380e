/**
 * The benchmark harness: `npm run bench [-- options]` (see --help).
 * Measures the gateway against its baselines and writes BENCHMARKS.md from
 * the measured values. Not part of the tests.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { BenchOptions, parseOptions } from './lib/args';
import { CompiledBench } from './lib/compile';
import { BenchContext } from './lib/context';
import { progress } from './lib/log';
import { waitForQuietMachine } from './lib/load-wait';
import { currentLoad, describeMachine } from './lib/machine';
import { REPO_ROOT } from './lib/paths';
import { renderReport } from './report/markdown';
import { BenchResults, GrowthResults } from './report/results';
import { runFederationSection } from './sections/federation';
import { runHttpSection } from './sections/http';
import { runLedgerGrowth } from './sections/ledger-growth';
import { runProfile } from './sections/profile';
import { runReplicasSection } from './sections/replicas';
import { runSkillsGrowth } from './sections/skills-growth';
import { runStdioSection } from './sections/stdio';
import { runToolsGrowth } from './sections/tools-growth';
import { runTracingSection } from './sections/tracing';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const options = parseOptions(argv);
  if (options.build) {
    progress('building the gateway (npm run build)');
    execFileSync('npm', ['run', 'build'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const nodeFlags = nodeFlagsInUse(options);
  const waited = await waitForQuietMachine(options.maxLoad, options.waitMinutes);
  const results: BenchResults = {
    startedAt: new Date(),
    command: ['npm run bench', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' '),
    loadAtStart: currentLoad(),
    waitedForLoadSeconds: waited,
    nodeFlags,
  };
  progress(`load average at start: ${results.loadAtStart.join(' / ')}`);
  const compiled = await CompiledBench.build();
  try {
    await runSections({ options, compiled }, results);
  } finally {
    compiled.dispose();
  }
  results.finishedAt = new Date();
  await report(results, options);
}

/** The flags every server gets, and where they came from. */
function nodeFlagsInUse(options: BenchOptions): BenchResults['nodeFlags'] {
  const { nodeFlags: flags, nodeFlagsSource: source } = options;
  progress(`node flags for every server (${source}): ${flags.join(' ') || 'none'}`);
  return { flags, source };
}

async function runSections(ctx: BenchContext, results: BenchResults): Promise<void> {
  const { sections } = ctx.options;
  if (sections.includes('http')) results.http = await runHttpSection(ctx);
  if (sections.includes('stdio')) results.stdio = await runStdioSection(ctx);
  if (sections.includes('federation')) results.federation = await runFederationSection(ctx);
  if (sections.includes('replicas')) results.replicas = await runReplicasSection(ctx);
  if (sections.includes('tracing')) results.tracing = await runTracingSection(ctx);
  const growth: GrowthResults = { ledger: [], notes: [] };
  if (sections.includes('tools')) growth.tools = await runToolsGrowth(ctx);
  if (sections.includes('skills')) growth.skills = await runSkillsGrowth(ctx);
  if (sections.includes('ledger')) growth.ledger = await runLedgerGrowth(ctx, growth.notes);
  if (sections.some((s) => s === 'tools' || s === 'skills' || s === 'ledger'))
    results.growth = growth;
  if (ctx.options.profile) results.profile = await runProfile(ctx);
}

async function report(results: BenchResults, options: BenchOptions): Promise<void> {
  const target = options.out === undefined ? undefined : resolve(REPO_ROOT, options.out);
  const markdown = await format(renderReport(results, describeMachine()), {
    ...(await resolveConfig(target ?? resolve(REPO_ROOT, 'BENCHMARKS.md'))),
    parser: 'markdown',
  });
  if (target === undefined) {
    process.stdout.write(markdown);
    return;
  }
  writeFileSync(target, markdown);
  progress(`wrote ${target}`);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
