import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../test/support/stdio-process';

/** The default destination, asynchronous stderr, in a real process (dist/ is built by Jest's setup). */
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
  it('writes a line while the process runs', () => {
    // Killed outright 400 ms later: only a line already written survives.
    const out = run(`log.log({ msg: 'live' }, 'T');
       setTimeout(() => process.kill(process.pid, 'SIGKILL'), 400);`);
    expect(out.signal).toBe('SIGKILL');
    expect(lines(out.stderr)).toEqual(['live']);
  });

  // A write still in progress at exit may land after the lines pino then writes synchronously:
  // every line arrives, not always in order (pino's asynchronous destination).
  it('keeps the last lines when the process exits or ends', () => {
    const exit = run(
      `log.log({ msg: 'first' }, 'T'); log.log({ msg: 'last' }, 'T'); process.exit(3);`,
    );
    expect(exit.status).toBe(3);
    expect(lines(exit.stderr).sort()).toEqual(['first', 'last']);
    expect(lines(run(`log.log({ msg: 'end' }, 'T');`).stderr)).toEqual(['end']);
  });

  it('keeps the last lines when an uncaught error ends the process', () => {
    const crash = run(`log.log({ msg: 'before' }, 'T'); log.log({ msg: 'crash' }, 'T');
       throw new Error('boom');`);
    expect(crash.status).not.toBe(0);
    expect(crash.stderr).toContain('Error: boom');
    expect(lines(crash.stderr).sort()).toEqual(['before', 'crash']);
  });

  it('keeps every line of a burst larger than a pipe holds when the process exits', () => {
    const out = run(`for (let i = 0; i < 5000; i++) log.log({ msg: 'line ' + i }, 'T');
       process.exit(0);`);
    const written = lines(out.stderr);
    expect(written).toHaveLength(5000);
    expect(new Set(written)).toEqual(new Set(Array.from({ length: 5000 }, (_, i) => `line ${i}`)));
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
