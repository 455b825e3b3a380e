import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { Counter, Gauge, Registry } from 'prom-client';
import { AlertPayload } from './alert-payload';
import { WebhookTarget } from './alert-webhook.resolver';
import { AlertsMetrics } from './alerts.metrics';
import { WebhookDispatcher } from './webhook.dispatcher';

/*
 * The dispatcher against real HTTP receivers on loopback: retries, what is
 * not retried, timeouts, the bounded queue. Retry delays are shortened
 * through the dispatcher's options; nothing here asserts on elapsed time.
 */

interface Received {
  headers: IncomingMessage['headers'];
  body: AlertPayload;
}

/** A receiver whose answer to each request is decided by `answer` (undefined: never answers). */
class Receiver {
  readonly received: Received[] = [];
  private readonly hanging: ServerResponse[] = [];

  private constructor(private readonly server: Server) {}

  static async start(answer: (n: number) => number | undefined): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (text += chunk));
      req.on('end', () => {
        receiver.received.push({ headers: req.headers, body: JSON.parse(text) as AlertPayload });
        const status = answer(receiver.received.length);
        if (status === undefined) receiver.hanging.push(res);
        else if (status >= 300 && status < 400)
          res.writeHead(status, { location: 'http://127.0.0.1:1/' }).end();
        else res.writeHead(status).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

function payload(n: number): AlertPayload {
  return {
    version: 1,
    id: `id-${n}`,
    status: 'firing',
    alert: 'redis_down',
    severity: 'critical',
    summary: `notification ${n}`,
    labels: { alertname: 'redis_down', severity: 'critical', instance: 'test:1' },
    startsAt: new Date(0).toISOString(),
    fingerprint: '0000000000000000',
    gateway: { instance: 'test:1', hostname: 'test', pid: 1, version: '0.0.0' },
  };
}

function target(url: string, extra: Partial<WebhookTarget> = {}): WebhookTarget {
  return { label: '#0 test', url, headers: {}, timeoutMs: 2_000, maxRetries: 3, ...extra };
}

async function waitFor(what: string, predicate: () => boolean | Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    if (await predicate()) return;
    await delay(20);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('WebhookDispatcher', () => {
  let registry: Registry;
  let notifications: Counter<'outcome'>;
  let metrics: AlertsMetrics;
  let receivers: Receiver[];
  let dispatcher: WebhookDispatcher | undefined;

  const outcome = async (name: string): Promise<number> =>
    (await notifications.get()).values.find((v) => v.labels.outcome === name)?.value ?? 0;

  const open = (targets: WebhookTarget[], maxQueued = 100): WebhookDispatcher =>
    (dispatcher = new WebhookDispatcher(targets, metrics, {
      maxQueued,
      retryBaseMs: 10,
      retryMaxMs: 40,
      userAgent: 'owlclaw-test',
    }));

  beforeEach(() => {
    registry = new Registry();
    const firing = new Gauge({
      name: 'f',
      help: 'f',
      labelNames: ['alert'],
      registers: [registry],
    });
    notifications = new Counter({
      name: 'n',
      help: 'n',
      labelNames: ['outcome'],
      registers: [registry],
    });
    const evaluations = new Counter({ name: 'e', help: 'e', registers: [registry] });
    metrics = new AlertsMetrics(firing, notifications, evaluations);
    receivers = [];
  });

  afterEach(async () => {
    dispatcher?.close();
    dispatcher = undefined;
    await Promise.all(receivers.map((r) => r.close()));
  });

  const receiver = async (answer: (n: number) => number | undefined) => {
    const started = await Receiver.start(answer);
    receivers.push(started);
    return started;
  };

  it('posts the payload as JSON with the configured headers', async () => {
    const hook = await receiver(() => 204);
    open([
      target(hook.url, {
        headers: { Authorization: 'Bearer s3cret', 'Content-Type': 'text/plain' },
      }),
    ]);
    dispatcher!.enqueue(payload(1));
    await waitFor('the notification', async () => (await outcome('sent')) === 1);
    expect(hook.received).toHaveLength(1);
    const [{ headers, body }] = hook.received;
    expect(body).toEqual(payload(1));
    expect(headers['content-type']).toBe('application/json');
    expect(headers.authorization).toBe('Bearer s3cret');
    expect(headers['user-agent']).toBe('owlclaw-test');
  });

  it('retries a receiver that answers 500, then counts the notification sent once', async () => {
    const hook = await receiver((n) => (n <= 2 ? 500 : 200));
    open([target(hook.url)]);
    dispatcher!.enqueue(payload(1));
    await waitFor('the delivery', async () => (await outcome('sent')) === 1);
    expect(hook.received.map((r) => r.body.id)).toEqual(['id-1', 'id-1', 'id-1']);
    expect(await outcome('failed')).toBe(0);
  });

  it('gives up after max_retries and counts the notification failed', async () => {
    const hook = await receiver(() => 503);
    open([target(hook.url, { maxRetries: 2 })]);
    dispatcher!.enqueue(payload(1));
    await waitFor('the failure', async () => (await outcome('failed')) === 1);
    expect(hook.received).toHaveLength(3);
  });

  it('does not retry an answer that retrying cannot change (400), nor follow a redirect', async () => {
    const bad = await receiver(() => 400);
    const moved = await receiver(() => 302);
    open([target(bad.url), target(moved.url)]);
    dispatcher!.enqueue(payload(1));
    await waitFor('both failures', async () => (await outcome('failed')) === 2);
    expect(bad.received).toHaveLength(1);
    expect(moved.received).toHaveLength(1);
  });

  it('abandons an attempt after timeout_ms and retries a receiver that never answers', async () => {
    const silent = await receiver(() => undefined);
    open([target(silent.url, { timeoutMs: 200, maxRetries: 1 })]);
    dispatcher!.enqueue(payload(1));
    await waitFor('the failure', async () => (await outcome('failed')) === 1);
    expect(silent.received).toHaveLength(2);
  });

  it('retries a refused connection', async () => {
    const gone = await receiver(() => 200);
    const url = gone.url;
    await gone.close();
    receivers = [];
    open([target(url, { maxRetries: 2 })]);
    dispatcher!.enqueue(payload(1));
    await waitFor('the failure', async () => (await outcome('failed')) === 1);
  });

  it('delivers in order, and a dead webhook holds up only its own queue', async () => {
    const live = await receiver(() => 200);
    const silent = await receiver(() => undefined);
    open([target(silent.url, { timeoutMs: 60_000, maxRetries: 0 }), target(live.url)]);
    for (let n = 1; n <= 5; n++) dispatcher!.enqueue(payload(n));
    await waitFor('the live deliveries', async () => (await outcome('sent')) === 5);
    expect(live.received.map((r) => r.body.id)).toEqual(['id-1', 'id-2', 'id-3', 'id-4', 'id-5']);
    expect(silent.received).toHaveLength(1);
    expect(dispatcher!.backlog).toBe(5);
  });

  it('drops the oldest waiting notification when a queue is full, and counts it', async () => {
    const silent = await receiver(() => undefined);
    open([target(silent.url, { timeoutMs: 60_000, maxRetries: 0 })], 2);
    for (let n = 1; n <= 5; n++) dispatcher!.enqueue(payload(n));
    // One in flight, two waiting; the two oldest waiting ones were dropped.
    expect(await outcome('dropped')).toBe(2);
    expect(dispatcher!.backlog).toBe(3);
    await waitFor('the first attempt', () => silent.received.length === 1);
    dispatcher!.close();
    // The attempt in flight is aborted, the waiting ones are let go.
    await waitFor('an empty backlog', () => dispatcher!.backlog === 0);
    dispatcher!.enqueue(payload(6));
    expect(dispatcher!.backlog).toBe(0);
    expect(silent.received).toHaveLength(1);
  });
});
