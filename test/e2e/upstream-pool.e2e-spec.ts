import { isRunning } from '../../src/upstreams/process-exit.wait';
import type { UpstreamRecord } from '../../src/upstreams/upstream-record';
import { UpstreamRegistryService } from '../../src/upstreams/upstream-registry.service';
import { UpstreamPool } from '../../src/upstreams/upstream.pool';
import { freePort } from '../support/redis-server';
import { echoUpstream, upstreamRecord } from '../support/upstream-records';

/** The pool over a registry snapshot, with the SDK fixture upstream as a real stdio child. */
describe('UpstreamPool', () => {
  const poolOf = (servers: UpstreamRecord[]): UpstreamPool =>
    new UpstreamPool({ current: { servers } } as unknown as UpstreamRegistryService);

  const waitFor = async (check: () => boolean): Promise<void> => {
    for (let tries = 0; tries < 200 && !check(); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  it('connects lazily by default and keeps one connection per server', async () => {
    const pool = poolOf([echoUpstream()]);
    pool.onApplicationBootstrap();
    const echo = pool.connection('echo');
    expect(echo?.connected).toBe(false);
    await echo?.callTool('echo', { text: 'a' });
    expect(pool.connection('echo')).toBe(echo);
    expect(pool.connection('unknown')).toBeUndefined();
    await pool.onApplicationShutdown();
  });

  it('connects warm servers at bootstrap, survives one that fails, and leaves no child after shutdown', async () => {
    const warmEcho = { ...echoUpstream(), warm: true };
    const warmBroken = {
      ...upstreamRecord('broken', {
        transport: 'streamable_http',
        http: { url: `http://127.0.0.1:${await freePort()}/mcp`, headers: {} },
      }),
      warm: true,
    };
    const pool = poolOf([warmEcho, warmBroken]);
    pool.onApplicationBootstrap();
    const echo = pool.connection('echo')!;
    await waitFor(() => echo.connected);
    expect(echo.connected).toBe(true);
    const pid = echo.pid!;
    expect(isRunning(pid)).toBe(true);
    await pool.onApplicationShutdown();
    expect(isRunning(pid)).toBe(false);
    expect(pool.connection('echo')).toBeUndefined();
  });
});
