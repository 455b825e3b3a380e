import { spawnSync } from 'node:child_process';

/** Set to 1 (CI) to make a suite fail, instead of skip, when a service it needs is unreachable. */
export const REQUIRE_SERVICES_ENV = 'MCP_TEST_REQUIRE_SERVICES';

export interface ServiceCheck {
  name: string;
  ok: boolean;
  detail: string;
}

/**
 * Whether a TCP service answers, decided synchronously (a child node
 * process connects and exits) so that a spec can choose `describe` or
 * `describe.skip` while its tests are being defined.
 */
export function tcpCheck(
  name: string,
  host: string,
  port: number,
  timeoutMs = 1_500,
): ServiceCheck {
  const script =
    `const s=require('net').connect(${port},${JSON.stringify(host)});` +
    `s.setTimeout(${timeoutMs},()=>process.exit(1));` +
    `s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1));`;
  const result = spawnSync(process.execPath, ['-e', script], { timeout: timeoutMs + 2_000 });
  return { name, ok: result.status === 0, detail: `${host}:${port}` };
}

/** Whether a program is on the PATH (for suites that start their own redis-server). */
export function programCheck(name: string, program: string): ServiceCheck {
  const result = spawnSync(program, ['--version'], { timeout: 5_000 });
  return { name, ok: result.status === 0, detail: program };
}

/**
 * True when the suite should run: every service answers, or the environment
 * demands the services (then the suite runs and fails on what is missing).
 * When a service is missing this is said loudly on stderr, never silently.
 */
export function servicesAvailable(suite: string, checks: ServiceCheck[]): boolean {
  const missing = checks.filter((c) => !c.ok);
  if (missing.length === 0) return true;
  const list = missing.map((c) => `${c.name} (${c.detail})`).join(', ');
  const required = process.env[REQUIRE_SERVICES_ENV] === '1';
  process.stderr.write(
    `\n*** ${suite}: ${list} unreachable; ` +
      (required
        ? `${REQUIRE_SERVICES_ENV}=1, so the suite runs and will FAIL ***\n\n`
        : `SKIPPING the suite (set ${REQUIRE_SERVICES_ENV}=1 to make this a failure) ***\n\n`),
  );
  return required;
}
