import { parseArgs } from 'node:util';
import { dockerfileNodeFlags, splitFlags } from './node-flags';

export const SECTIONS = [
  'http',
  'stdio',
  'federation',
  'replicas',
  'tracing',
  'tools',
  'skills',
  'ledger',
] as const;
export type Section = (typeof SECTIONS)[number];

export interface BenchOptions {
  sections: Section[];
  /** Seconds per autocannon run. */
  duration: number;
  reps: number;
  connections: number[];
  stdioCalls: number;
  stdioReps: number;
  toolCount: number;
  skillCount: number;
  ledgerRows: number;
  ledgerDrivers: Array<'sqlite' | 'postgres'>;
  postgresUrl: string;
  /** The Redis the replicas section's gateways share (state.driver redis). */
  redisUrl: string;
  /** Wait while the 1-minute load average is above this (0: never wait). */
  maxLoad: number;
  waitMinutes: number;
  build: boolean;
  /** Where the report goes; undefined prints it to stdout only. */
  out?: string;
  profile: boolean;
  /** Where to keep the raw .cpuprofile of the profile section (for DevTools); undefined drops it. */
  profileOut?: string;
  /** Node flags every server gets, before its script. */
  nodeFlags: string[];
  /** Where they came from, for the report. */
  nodeFlagsSource: 'Dockerfile' | '--node-flags';
}

const HELP = `npm run bench -- [options]

  --only <list>         sections to run, comma separated: ${SECTIONS.join(', ')}
                        (default: all; "growth" means tools,skills,ledger; "profile" means --profile)
                        (a short look at one section: --only federation --duration 2 --reps 1
                        --connections 10 --max-load 0)
  --duration <s>        seconds per HTTP load run, federation's and replicas' too (default 10)
  --reps <n>            HTTP, federation and replicas repetitions, targets alternating (default 3)
  --connections <list>  HTTP, federation and replicas connection counts (default 10,50)
  --stdio-calls <n>     stdio round trips per run (default 10000)
  --stdio-reps <n>      stdio runs per cell, each on fresh servers, targets alternating; the median counts
                        (default 5: a run lasts about a second, and its rate moves by 10-20 % with where
                        the scheduler puts client, server and their helper threads on the two cores)
  --tools <n>           registered tools for the tools/list growth test (default 10000)
  --skills <n>          skills for the catalog growth test (default 10000)
  --ledger-rows <n>     ledger rows for the stats/ledger queries (default 1000000)
  --ledger <list>       ledger drivers: sqlite,postgres (default both)
  --postgres-url <url>  PostgreSQL for the ledger test (default postgres://postgres@127.0.0.1:5432/test)
  --redis-url <url>     Redis for the replicas section (default redis://127.0.0.1:6379); its keys
                        get a prefix of their own per run and are deleted at the end
  --max-load <x>        wait while the 1-min load average exceeds x (default 3; 0 = never wait)
  --wait-minutes <n>    longest wait for the load to drop (default 20)
  --no-build            use dist/ as it is (default: npm run build first)
  --out <file>          report file (default BENCHMARKS.md for a full run; a subset prints only)
  --profile             also CPU-profile the governed gateway under tools/call load
  --profile-out <file>  keep the raw .cpuprofile there (open it in Chrome DevTools)
  --node-flags "<flags>"
                        node flags for every server the bench starts, instead of those of the
                        Dockerfile's CMD (default); --node-flags "" for none
  --help`;

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: joinFlagValues(argv),
    options: {
      only: { type: 'string' },
      duration: { type: 'string', default: '10' },
      reps: { type: 'string', default: '3' },
      connections: { type: 'string', default: '10,50' },
      'stdio-calls': { type: 'string', default: '10000' },
      'stdio-reps': { type: 'string', default: '5' },
      tools: { type: 'string', default: '10000' },
      skills: { type: 'string', default: '10000' },
      'ledger-rows': { type: 'string', default: '1000000' },
      ledger: { type: 'string', default: 'sqlite,postgres' },
      'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
      'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
      'max-load': { type: 'string', default: '3' },
      'wait-minutes': { type: 'string', default: '20' },
      'no-build': { type: 'boolean', default: false },
      out: { type: 'string' },
      profile: { type: 'boolean', default: false },
      'profile-out': { type: 'string' },
      'node-flags': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    process.exit(0);
  }
  const only = values.only?.split(',');
  const sections = parseSections(only?.filter((name) => name !== 'profile'));
  const full = sections.length === SECTIONS.length;
  return {
    sections,
    duration: positive('duration', values.duration),
    reps: positive('reps', values.reps),
    connections: values.connections.split(',').map((c) => positive('connections', c)),
    stdioCalls: positive('stdio-calls', values['stdio-calls']),
    stdioReps: positive('stdio-reps', values['stdio-reps']),
    toolCount: positive('tools', values.tools),
    skillCount: positive('skills', values.skills),
    ledgerRows: positive('ledger-rows', values['ledger-rows']),
    ledgerDrivers: values.ledger.split(',').map((d) => {
      if (d !== 'sqlite' && d !== 'postgres') throw new Error(`--ledger: unknown driver "${d}"`);
      return d;
    }),
    postgresUrl: values['postgres-url'],
    redisUrl: values['redis-url'],
    maxLoad: Number(values['max-load']),
    waitMinutes: Number(values['wait-minutes']),
    build: !values['no-build'],
    out: values.out ?? (full ? 'BENCHMARKS.md' : undefined),
    profile:
      values.profile || values['profile-out'] !== undefined || (only?.includes('profile') ?? false),
    profileOut: values['profile-out'],
    nodeFlags:
      values['node-flags'] === undefined ? dockerfileNodeFlags() : splitFlags(values['node-flags']),
    nodeFlagsSource: values['node-flags'] === undefined ? 'Dockerfile' : '--node-flags',
  };
}

/**
 * `--node-flags --x` as `--node-flags=--x`: parseArgs would take a value that
 * starts with a dash for the next option, and node flags always do.
 */
function joinFlagValues(argv: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--node-flags' && i + 1 < argv.length) joined.push(`--node-flags=${argv[++i]}`);
    else joined.push(argv[i]);
  }
  return joined;
}

function parseSections(only: string[] | undefined): Section[] {
  if (only === undefined) return [...SECTIONS];
  const names = only.flatMap((name) =>
    name === 'growth' ? ['tools', 'skills', 'ledger'] : [name],
  );
  for (const name of names) {
    if (!(SECTIONS as readonly string[]).includes(name)) {
      throw new Error(
        `--only: unknown section "${name}" (known: ${SECTIONS.join(', ')}, growth, profile)`,
      );
    }
  }
  return SECTIONS.filter((section) => names.includes(section));
}

function positive(name: string, value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) {
    throw new Error(`--${name}: expected a positive integer, got "${value}"`);
  }
  return parsed;
}
