import { ChildSlots } from '../../src/upstreams/child-slots';
import { UpstreamConnection } from '../../src/upstreams/upstream.connection';
import { NO_UPSTREAM_METRICS } from '../../src/upstreams/upstream-metrics.sink';
import { fastEchoUpstream } from '../support/compiled-echo-upstream';
import { eventually } from '../support/process-table';
it('try', async () => {
  const children = new ChildSlots(4);
  const t0 = Date.now();
  const metrics = { ...NO_UPSTREAM_METRICS, connectAttempt: (s: string, o: string) => { if (o !== 'success') console.log(Date.now() - t0, o); } };
  await Promise.all([0, 1, 2, 3].map(async (lane) => {
    const c = new UpstreamConnection(fastEchoUpstream(), { children, metrics, restart: { baseMs: 1, maxMs: 5, maxFailures: 1e6, windowMs: 60000 } });
    await c.callTool('echo', {});
    for (let i = 0; i < 5; i++) {
      let t = Date.now();
      await c.callTool('crash', {}).catch(() => undefined);
      const t1 = Date.now() - t;
      const ok = await eventually(() => c.connected, 5000);
      console.log(lane, 'crash', t1, 'restart', Date.now() - t - t1, c.status.state, ok, children.inUse);
    }
    await c.close();
  }));
}, 60000);
