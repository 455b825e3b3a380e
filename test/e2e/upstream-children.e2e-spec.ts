import { GatewayError } from '../../src/errors/gateway.error';
import { UpstreamConnection } from '../../src/upstreams/upstream.connection';
import { ChildSlots } from '../../src/upstreams/child-slots';
import type { UpstreamRecord } from '../../src/upstreams/upstream-record';
import { UpstreamRegistryService } from '../../src/upstreams/upstream-registry.service';
import { DEFAULT_POOL_SETTINGS, UpstreamPool } from '../../src/upstreams/upstream.pool';
import { fastEchoUpstream, markedEchoUpstreamCopy } from '../support/compiled-echo-upstream';
import { eventually, isLive, liveGroupMembers, liveProcessesWith } from '../support/process-table';
import { upstreamRecord } from '../support/upstream-records';

/** Owned stdio children (#16 item 3): real fixture processes, the real process table. */
describe('upstream stdio children', () => {
  const quickRestart = { baseMs: 10, maxMs: 50, maxFailures: 5, windowMs: 60_000 };
  const textOf = (result: { content: Array<{ type: string; text?: string }> }): string =>
    result.content[0]?.text ?? '';
  const whoami = async (
    connection: UpstreamConnection,
  ): Promise<{ pid: number; pgid: number; ppid: number }> =>
    JSON.parse(textOf(await connection.callTool('whoami', {}))) as {
      pid: number;
      pgid: number;
      ppid: number;
    };
  const gatewayErrorOf = async (call: Promise<unknown>): Promise<GatewayError> => {
    const error = await call.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  };

  it('runs the command in a process group of its own, led by the spawned guard', async () => {
    const connection = new UpstreamConnection(fastEchoUpstream('echo', {}, { shellWrapped: true }));
    const me = await whoami(connection);
    const leader = connection.pid!;
    expect(me.pgid).toBe(leader);
    expect(me.pid).not.toBe(leader);
    expect(liveGroupMembers(leader).length).toBeGreaterThanOrEqual(3); // guard, sh -c, node
    await connection.close();
    expect(liveGroupMembers(leader)).toEqual([]);
  });

  it('kills the whole group on close, a grandchild that ignores SIGTERM included', async () => {
    const connection = new UpstreamConnection(fastEchoUpstream());
    const grandchild = Number(textOf(await connection.callTool('grandchild', { stubborn: true })));
    expect(isLive(grandchild)).toBe(true);
    await connection.close();
    expect(isLive(grandchild)).toBe(false);
    expect(isLive(connection.pid ?? -1)).toBe(false);
  });

  it('restarts a crashed child, after which calls succeed, and reaps what it left behind', async () => {
    const connection = new UpstreamConnection(fastEchoUpstream(), { restart: quickRestart });
    const before = await whoami(connection);
    const grandchild = Number(textOf(await connection.callTool('grandchild', {})));
    const crash = await gatewayErrorOf(connection.callTool('crash', { code: 3 }));
    expect(crash.data.code).toBe('mcp_unavailable');
    expect(crash.retryable).toBe(true);
    expect(await eventually(() => connection.connected)).toBe(true);
    const after = await whoami(connection);
    expect(after.pid).not.toBe(before.pid);
    expect(textOf(await connection.callTool('echo', { text: 'back' }))).toBe('back');
    expect(isLive(grandchild)).toBe(false);
    expect(connection.status).toMatchObject({
      state: 'connected',
      restarts: 1,
      last_error: 'child exited unexpectedly',
    });
    await connection.close();
  });

  it('backs off between failed starts, fails calls fast meanwhile, and marks the server down', async () => {
    const attempts: string[] = [];
    const failing = upstreamRecord('failing', {
      transport: 'stdio',
      stdio: { command: '/bin/sh', args: ['-c', 'exit 3'], env: {}, env_from: [] },
    });
    const connection = new UpstreamConnection(failing, {
      restart: { baseMs: 200, maxMs: 400, maxFailures: 4, windowMs: 60_000 },
      restartJitter: () => 0.99,
      metrics: {
        connectAttempt: (_server, outcome) => attempts.push(outcome),
        call: () => undefined,
        outputBytes: () => undefined,
        state: () => undefined,
        children: () => undefined,
      },
    });
    const first = await gatewayErrorOf(connection.callTool('echo', {}));
    expect(first.data.code).toBe('mcp_unavailable');
    expect(connection.status.state).toBe('degraded');
    // A call while a restart is pending is refused without starting anything.
    const refused = await gatewayErrorOf(connection.callTool('echo', {}));
    expect(refused.message).toContain('restarting after a failure (attempt 1)');
    expect(refused.data.code).toBe('mcp_unavailable');
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect(attempts).toEqual(['failure']);
    expect(await eventually(() => connection.status.state === 'down')).toBe(true);
    expect(attempts).toEqual(['failure', 'failure', 'failure', 'failure']);
    const down = await gatewayErrorOf(connection.callTool('echo', {}));
    expect(down.data.code).toBe('mcp_unavailable');
    expect(down.message).toContain('down after repeated failures');
    expect(attempts).toHaveLength(4);
    await connection.close();
  });

  it('refuses a child past upstreams.max_children, naming the limit, until one is gone', async () => {
    const servers: UpstreamRecord[] = [fastEchoUpstream('one'), fastEchoUpstream('two')];
    const pool = new UpstreamPool({ current: { servers } } as unknown as UpstreamRegistryService, {
      upstreams: { ...DEFAULT_POOL_SETTINGS, max_children: 1 },
    });
    await pool.connection('one')!.callTool('echo', {});
    expect(pool.runningChildren).toBe(1);
    const refused = await gatewayErrorOf(pool.connection('two')!.callTool('echo', {}));
    expect(refused.data).toMatchObject({
      code: 'mcp_unavailable',
      limit: 'upstreams.max_children',
      max_children: 1,
    });
    expect(refused.message).toContain('upstreams.max_children');
    await pool.connection('one')!.close();
    expect(pool.runningChildren).toBe(0);
    expect(textOf(await pool.connection('two')!.callTool('echo', { text: 'ok' }))).toBe('ok');
    await pool.close();
    expect(pool.runningChildren).toBe(0);
  });

  it('closes a child idle for idle_timeout_seconds and starts it again on the next call', async () => {
    const children = new ChildSlots(4);
    const connection = new UpstreamConnection(
      fastEchoUpstream('idle', { idle_timeout_seconds: 1 }),
      {
        children,
      },
    );
    const first = connection.pid ?? (await whoami(connection)).pgid;
    expect(await eventually(() => !connection.connected && children.inUse === 0)).toBe(true);
    expect(liveGroupMembers(first)).toEqual([]);
    expect(connection.status.state).toBe('idle');
    const again = await whoami(connection);
    expect(again.pgid).not.toBe(first);
    expect(connection.status.state).toBe('connected');
    await connection.close();
  });

  it('leaves no fixture process behind when closed mid-restart', async () => {
    const entry = markedEchoUpstreamCopy();
    const connection = new UpstreamConnection(fastEchoUpstream('mid', {}, { entry }), {
      restart: { ...quickRestart, baseMs: 5_000, maxMs: 5_000 },
    });
    await connection.callTool('echo', {});
    await connection.callTool('crash', {}).catch(() => undefined);
    await connection.close();
    expect(await eventually(() => liveProcessesWith(entry).length === 0)).toBe(true);
  });
});
