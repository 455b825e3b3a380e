import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../test/support/stdio-process';

/** The default destination: buffered stderr, in a real process (dist/ is built by Jest's setup). */
function run(script: string): { stderr: string; status: number | null; signal: string | null } {
  const logger = JSON.stringify(join(REPO_ROOT, 'dist/logging/gateway-logger.js'));
  const result = spawnSync(
    process.execPath,
    [
      '-e',
      `const { GatewayLogger } = require(${logger});
       const log = new GatewayLogger({ level: 'info', format: 'json' });
       ${script}`,
    ],
    { encoding: 'utf8', timeout: 10_000 },
  );
  return { stderr: result.stderr, status: result.status, signal: result.signal };
}

const lines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

describe('GatewayLogger on stderr', () => {
  it('writes a buffered line within its flush interval while the process runs', () => {
    // Killed outright 400 ms later: only a line already written survives.
    const out = run(`log.log({ msg: 'live' }, 'T');
       setTimeout(() => process.kill(process.pid, 'SIGKILL'), 400);`);
    expect(out.signal).toBe('SIGKILL');
    expect(lines(out.stderr)).toEqual(['live']);
  });

  it('writes what is buffered when the process exits, ends or crashes', () => {
    expect(lines(run(`log.log({ msg: 'exit' }, 'T'); process.exit(3);`).stderr)).toEqual(['exit']);
    expect(lines(run(`log.log({ msg: 'end' }, 'T');`).stderr)).toEqual(['end']);
    const crash = run(`setTimeout(() => { throw new Error('boom'); }, 5);
       log.log({ msg: 'crash' }, 'T');`);
    expect(crash.status).not.toBe(0);
    expect(lines(crash.stderr)).toEqual(['crash']);
  });

  it('never writes to stdout', () => {
    const result = spawnSync(
      process.execPath,
      [
        '-e',
        `const { GatewayLogger } = require(${JSON.stringify(join(REPO_ROOT, 'dist/logging/gateway-logger.js'))});
         new GatewayLogger({ level: 'debug', format: 'pretty' }).debug({ msg: 'x' }, 'T');`,
      ],
      { encoding: 'utf8', timeout: 10_000 },
    );
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('DEBUG [T] x');
  });
});
