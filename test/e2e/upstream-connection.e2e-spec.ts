import { GatewayError } from '../../src/errors/gateway.error';
import { isRunning } from '../../src/upstreams/process-exit.wait';
import { UpstreamConnection } from '../../src/upstreams/upstream.connection';
import { META_OUTPUT_TRUNCATED } from '../../src/upstreams/upstream-connection.constants';
import { EverythingHttpServer } from '../support/everything-http';
import { ForgetfulHttpUpstream } from '../support/forgetful-http-upstream';
import { freePort } from '../support/redis-server';
import { echoUpstream, everythingUpstream, upstreamRecord } from '../support/upstream-records';

/** Connections to real upstreams: server-everything from npm and the SDK fixture upstream. */
describe('UpstreamConnection', () => {
  const open: UpstreamConnection[] = [];
  const connection = (record: ConstructorParameters<typeof UpstreamConnection>[0]) => {
    const created = new UpstreamConnection(record);
    open.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((each) => each.close()));
  });

  const textOf = (result: { content: unknown[] }): string =>
    (result.content[0] as { type: 'text'; text: string }).text;

  it('lists the tools of server-everything over stdio and calls its echo', async () => {
    const everything = connection(everythingUpstream());
    const tools = await everything.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo']));
    const result = await everything.callTool('echo', { message: 'hello' });
    expect(textOf(result)).toContain('hello');
  });

  it('calls the fixture echo', async () => {
    const echo = connection(echoUpstream());
    expect(textOf(await echo.callTool('echo', { text: 'hi' }))).toBe('hi');
  });

  it('maps a call past tool_timeout_ms to mcp_timeout (-32004)', async () => {
    const echo = connection(echoUpstream({ tool_timeout_ms: 300 }));
    await echo.connect();
    const error = await echo.callTool('slow', { ms: 2_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe(-32004);
    expect((error as GatewayError).data.code).toBe('mcp_timeout');
  });

  it('keeps a call alive while progress arrives, up to the timeout between two reports', async () => {
    const echo = connection(echoUpstream({ tool_timeout_ms: 400 }));
    const progress: number[] = [];
    const result = await echo.callTool(
      'slow',
      { ms: 1_200, steps: 6 },
      { onprogress: (report) => progress.push(report.progress) },
    );
    expect(textOf(result)).toBe('slept 1200 ms');
    // The last report may race the result; the five before it are what kept the call alive.
    expect(progress.slice(0, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('never has more than max_concurrency calls in flight; a waiter past its timeout gets upstream_busy', async () => {
    const echo = connection(echoUpstream({ max_concurrency: 2, tool_timeout_ms: 1_500 }));
    await echo.connect();
    const calls = Array.from({ length: 5 }, () =>
      echo.callTool('slow', { ms: 1_000 }).then(
        () => 'ok',
        (error: GatewayError) => error.data.code as string,
      ),
    );
    const outcomes = await Promise.all(calls);
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(4);
    expect(outcomes.filter((outcome) => outcome === 'upstream_busy')).toHaveLength(1);
    expect(textOf(await echo.callTool('concurrency', {}))).toBe('2');
  });

  it('cuts output over max_tool_output_bytes: head and tail with a marker, structuredContent dropped, _meta says so', async () => {
    const echo = connection(echoUpstream({ max_tool_output_bytes: 4_096 }));
    const result = await echo.callTool('flood', { bytes: 100_000, structured: true });
    const text = textOf(result);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4_096);
    expect(text).toMatch(
      /^x+\n\[\.\.\. owlclaw: \d+ of 100000 bytes cut by max_tool_output_bytes \.\.\.\]\nx+$/,
    );
    expect(result.structuredContent).toBeUndefined();
    expect(result._meta?.[META_OUTPUT_TRUNCATED]).toEqual({
      limitBytes: 4_096,
      originalBytes: expect.any(Number),
      textBlocksCut: 1,
      blocksDropped: 0,
      structuredContentDropped: true,
    });
    const small = await echo.callTool('flood', { bytes: 1_000, structured: true });
    expect(small.structuredContent).toEqual({ text: 'x'.repeat(1_000) });
    expect(small._meta?.[META_OUTPUT_TRUNCATED]).toBeUndefined();
  });

  it('leaves no child process after close()', async () => {
    const echo = connection(echoUpstream());
    await echo.connect();
    const pid = echo.pid;
    expect(pid).toEqual(expect.any(Number));
    expect(isRunning(pid!)).toBe(true);
    await echo.close();
    expect(isRunning(pid!)).toBe(false);
    const error = await echo.callTool('echo', {}).catch((e: unknown) => e);
    expect((error as GatewayError).data.code).toBe('mcp_unavailable');
  });

  it('maps an unreachable HTTP upstream to mcp_unavailable, retryable', async () => {
    const unreachable = connection(
      upstreamRecord('nowhere', {
        transport: 'streamable_http',
        http: { url: `http://127.0.0.1:${await freePort()}/mcp`, headers: {} },
      }),
    );
    const error = await unreachable.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).data.code).toBe('mcp_unavailable');
    expect((error as GatewayError).retryable).toBe(true);
  });
});

describe('UpstreamConnection over Streamable HTTP', () => {
  let server: EverythingHttpServer;
  beforeAll(async () => {
    server = await EverythingHttpServer.start();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('lists and calls server-everything over Streamable HTTP with a bearer secret', async () => {
    const everything = new UpstreamConnection(
      upstreamRecord('everything-http', {
        transport: 'streamable_http',
        http: {
          url: server.url,
          headers: { 'X-Team': 'platform' },
          auth_ref: 'env:T',
          auth_secret: 's3cret',
        },
      }),
    );
    try {
      expect((await everything.listTools()).map((tool) => tool.name)).toContain('echo');
      const result = await everything.callTool('echo', { message: 'over http' });
      expect(JSON.stringify(result.content)).toContain('over http');
    } finally {
      await everything.close();
    }
  });
});

describe('UpstreamConnection to an HTTP upstream that forgets its session', () => {
  it('re-initializes once on 404 and the call succeeds', async () => {
    const upstream = await ForgetfulHttpUpstream.start();
    const forgetful = new UpstreamConnection(
      upstreamRecord('forgetful', {
        transport: 'streamable_http',
        http: { url: upstream.url, headers: {} },
      }),
    );
    try {
      await forgetful.callTool('echo', { text: 'before' });
      upstream.forget();
      const result = await forgetful.callTool('echo', { text: 'after' });
      expect(result.content).toEqual([{ type: 'text', text: 'after' }]);
      expect(upstream.initializations).toBe(2);
    } finally {
      await forgetful.close();
      await upstream.stop();
    }
  });
});
