/**
 * `npm run test:conformance`: the official MCP conformance suite
 * (@modelcontextprotocol/conformance, every server scenario: `--suite all`),
 * in two releases (SUITES below), against the gateway over Streamable HTTP.
 *
 * The suite needs Node 22 while the gateway runs on Node 20, so both live in
 * the isolated `conformance/` package (installed here with `npm ci` when its
 * node_modules is missing). The gateway (test/conformance/conformance-gateway.ts,
 * the real gateway plus the conformance fixture pack) runs on this process's
 * Node; the suite runs on conformance/node_modules/node. Its output is passed
 * through, then a table of every scenario with its failed and warning checks.
 * Exits non-zero when a scenario fails or the suite cannot run; the gateway
 * is always stopped.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const PACKAGE = join(ROOT, 'conformance');
const NODE_22 = join(PACKAGE, 'node_modules', 'node', 'bin', 'node');
const suiteScript = (pkg: string) =>
  join(PACKAGE, 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js');

/** The tasks extension's scenarios: extension scenarios run only when named, one per run. */
const TASKS_SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];

/**
 * Two releases of the suite, one after the other against the same gateway:
 * 0.1.16 for the session-based revisions, the 0.2 alpha for 2026-07-28
 * (`--spec-version 2026-07-28`) and for the tasks extension. Every scenario must pass.
 */
const SUITES = [
  { label: '0.1.16', script: suiteScript('conformance'), runs: [['--suite', 'all']] },
  {
    label: '2026-07-28 (0.2.0-alpha.12)',
    script: suiteScript('conformance-alpha'),
    runs: [['--suite', 'all', '--spec-version', '2026-07-28']],
  },
  {
    label: 'tasks extension (0.2.0-alpha.12)',
    script: suiteScript('conformance-alpha'),
    runs: TASKS_SCENARIOS.map((scenario) => ['--scenario', scenario]),
  },
];
const GATEWAY = join(ROOT, 'test', 'conformance', 'conformance-gateway.ts');
const GATEWAY_START_TIMEOUT_MS = 120_000;
const GATEWAY_STOP_TIMEOUT_MS = 10_000;

interface Check {
  /** SUCCESS, FAILURE, WARNING or INFO. */
  status: string;
  name: string;
  errorMessage?: string;
}

interface ScenarioOutcome {
  scenario: string;
  passed: number;
  failed: Check[];
  warnings: Check[];
}

function log(line: string): void {
  process.stdout.write(`[test:conformance] ${line}\n`);
}

/** `npm ci` of the sub-package, once (CI starts from a fresh clone). */
function installSuite(): void {
  if (existsSync(join(PACKAGE, 'node_modules'))) return;
  log('installing the conformance suite and Node 22 into conformance/node_modules');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--prefix', 'conformance', '--no-audit', '--no-fund'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`npm ci --prefix conformance failed (${result.status})`);
}

function checkInstall(): void {
  for (const path of [NODE_22, ...SUITES.map((suite) => suite.script)]) {
    if (!existsSync(path)) {
      throw new Error(`${path} is missing: remove conformance/node_modules and run again`);
    }
  }
}

/** Starts the gateway on this Node and resolves with it and its port once it listens. */
function startGateway(logFile: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', GATEWAY], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const gatewayLog = createWriteStream(logFile);
  child.stderr?.pipe(gatewayLog);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the gateway did not listen within ${GATEWAY_START_TIMEOUT_MS} ms`));
    }, GATEWAY_START_TIMEOUT_MS);
    child.once('message', (message: { port?: unknown }) => {
      clearTimeout(timer);
      if (typeof message.port === 'number') resolve({ child, port: message.port });
      else reject(new Error(`unexpected message from the gateway: ${JSON.stringify(message)}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited before listening (code ${code}, signal ${signal})`));
    });
  });
}

async function stopGateway(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), GATEWAY_STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** Runs each run of one suite (output passed through); resolves with the worst exit code. */
async function runSuite(
  suite: (typeof SUITES)[number],
  url: string,
  outputDir: string,
): Promise<number> {
  let worst = 0;
  for (const runArgs of suite.runs) {
    worst = Math.max(worst, await runOnce(suite.script, runArgs, url, outputDir));
  }
  return worst;
}

function runOnce(
  script: string,
  runArgs: string[],
  url: string,
  outputDir: string,
): Promise<number> {
  const args = [script, 'server', '--url', url, ...runArgs, '--output-dir', outputDir];
  log([NODE_22, ...args].map((a) => a.replace(`${ROOT}/`, '')).join(' '));
  const child = spawn(NODE_22, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/**
 * The checks the suite saved, one directory per scenario
 * (`server-<scenario>-<ISO timestamp>/checks.json`), in the order they ran.
 */
function readOutcomes(outputDir: string): ScenarioOutcome[] {
  if (!existsSync(outputDir)) return [];
  const runs = readdirSync(outputDir)
    .map((entry) => ({ entry, match: /^server-(.+)-(\d{4}-\d\d-\d\dT[\d-]+Z)$/.exec(entry) }))
    .filter(({ entry, match }) => match && existsSync(join(outputDir, entry, 'checks.json')))
    .sort((a, b) => a.match![2].localeCompare(b.match![2]));
  return runs.map(({ entry, match }) => {
    const checks = JSON.parse(
      readFileSync(join(outputDir, entry, 'checks.json'), 'utf8'),
    ) as Check[];
    return {
      scenario: match![1],
      passed: checks.filter((c) => c.status === 'SUCCESS').length,
      failed: checks.filter((c) => c.status === 'FAILURE'),
      warnings: checks.filter((c) => c.status === 'WARNING'),
    };
  });
}

function printTable(outcomes: ScenarioOutcome[]): void {
  const width = Math.max(...outcomes.map((o) => o.scenario.length), 'scenario'.length);
  log('');
  log(`${'scenario'.padEnd(width)}  status  passed  failed  warnings`);
  for (const o of outcomes) {
    const status = o.failed.length > 0 ? 'FAIL' : o.warnings.length > 0 ? 'WARN' : 'PASS';
    log(
      `${o.scenario.padEnd(width)}  ${status.padEnd(6)}  ${String(o.passed).padStart(6)}  ${String(o.failed.length).padStart(6)}  ${String(o.warnings.length).padStart(8)}`,
    );
    for (const check of [...o.failed, ...o.warnings]) {
      log(`${' '.repeat(width)}    ${check.status} ${check.name}: ${check.errorMessage ?? ''}`);
    }
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  installSuite();
  checkInstall();
  const scratch = mkdtempSync(join(tmpdir(), 'owlclaw-conformance-run-'));
  const gatewayLog = join(scratch, 'gateway.log');
  let gateway: ChildProcess | undefined;
  try {
    const launched = await startGateway(gatewayLog);
    gateway = launched.child;
    const url = `http://127.0.0.1:${launched.port}/mcp`;
    log(`gateway (Node ${process.versions.node}) listening at ${url}`);
    const summaries: string[] = [];
    let ok = true;
    for (const [index, suite] of SUITES.entries()) {
      log(`suite ${suite.label}`);
      const results = join(scratch, `results-${index}`);
      const exitCode = await runSuite(suite, url, results);
      const outcomes = readOutcomes(results);
      printTable(outcomes);
      const failed = outcomes.filter((o) => o.failed.length > 0).length;
      const warnings = outcomes.reduce((sum, o) => sum + o.warnings.length, 0);
      const passed = exitCode === 0 && outcomes.length > 0 && failed === 0;
      if (!passed) {
        log(`suite ${suite.label} exit code ${exitCode}; gateway log (stderr) follows`);
        process.stdout.write(readFileSync(gatewayLog, 'utf8').slice(-20_000));
      }
      ok &&= passed;
      summaries.push(
        `${suite.label}: ${outcomes.length - failed} passed, ${failed} failed, ${warnings} warnings`,
      );
    }
    log(`${Math.round((Date.now() - started) / 1000)} s`);
    // Closing lines in the plain "N passed, N failed" form, one per suite.
    log('');
    for (const summary of summaries) process.stdout.write(`conformance ${summary}\n`);
    return ok ? 0 : 1;
  } finally {
    if (gateway) await stopGateway(gateway);
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `test:conformance failed: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  },
);
