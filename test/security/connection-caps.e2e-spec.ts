/**
 * Slowloris: connections that never send a request, or never finish one,
 * held until nothing else (a probe of /health included) can connect. Open
 * connections are capped in total and per peer address (limits.connections_*),
 * one over a cap is closed at once, and a request whose headers or body do
 * not arrive in time (http.headers_timeout_seconds, http.request_timeout_seconds)
 * is answered 408 and closed.
 */
import { connect, Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { HttpGatewayChild } from '../support/http-child';
import { testGatewayEnv } from '../support/test-defaults';
import { logLines, refusals } from './support/limit-refusals';

jest.setTimeout(60_000);

/** A raw TCP connection to the gateway and what it received until it was closed. */
class RawConnection {
  received = '';
  closed = false;
  readonly ended: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (this.received += chunk));
    socket.on('error', () => undefined);
    this.ended = new Promise((resolve) =>
      socket.once('close', () => {
        this.closed = true;
        resolve();
      }),
    );
  }

  /** Connected (the handshake done), from `localAddress` (any 127.0.0.0/8 address on Linux). */
  static open(port: number, localAddress = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, localAddress });
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends a GET /health and resolves with the status line of its answer. */
  async health(): Promise<string> {
    this.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    while (!this.received.includes('\r\n') && !this.closed) await delay(10);
    return this.received.split('\r\n')[0];
  }

  close(): Promise<void> {
    this.socket.destroy();
    return this.ended;
  }
}

/** `count` connections, one after another (so the gateway accepts them in that order). */
async function openMany(port: number, count: number, localAddress?: string) {
  const connections: RawConnection[] = [];
  for (let i = 0; i < count; i++) connections.push(await RawConnection.open(port, localAddress));
  return connections;
}

/**
 * A GET /health on a new connection, retried while the gateway has yet to see
 * earlier ones close; `refused` counts the attempts closed unanswered.
 */
async function healthAnswered(port: number, localAddress?: string) {
  for (let refused = 0; ; refused++) {
    const connection = await RawConnection.open(port, localAddress);
    const status = await connection.health();
    await connection.close();
    if (status !== '') return { status, refused };
    await delay(50);
  }
}

describe('connection caps (a gateway process)', () => {
  let gateway: HttpGatewayChild;
  let port: number;

  beforeAll(async () => {
    gateway = await HttpGatewayChild.start({
      ...testGatewayEnv(),
      MCP_SERVER_HTTP_HOST: '127.0.0.1',
      MCP_SERVER_HTTP_PORT: '0',
      MCP_SERVER_LIMITS_CONNECTIONS_TOTAL: '20',
      MCP_SERVER_LIMITS_CONNECTIONS_PER_ADDRESS: '5',
    });
    port = Number(new URL(gateway.baseUrl).port);
  });

  afterAll(() => gateway?.stop());

  it('closes every connection over limits.connections_total at once, counts and logs them, and serves once some close', async () => {
    // 20 idle connections, 5 from each of four addresses, so no address reaches its own cap.
    const held: RawConnection[] = [];
    for (const address of ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4']) {
      held.push(...(await openMany(port, 5, address)));
    }
    const extra = await openMany(port, 10, '127.0.0.5');
    await Promise.all(extra.map((connection) => connection.ended));
    expect(extra.map((connection) => connection.received)).toEqual(Array(10).fill(''));
    expect(held.filter((connection) => connection.closed)).toEqual([]);

    await Promise.all(held.map((connection) => connection.close()));
    const after = await healthAnswered(port, '127.0.0.5');
    expect(after.status).toBe('HTTP/1.1 200 OK');
    expect(await refusals(gateway.baseUrl, 'connections_total')).toBe(10 + after.refused);
    // Logged, but not once per connection.
    const logged = logLines(gateway.stderr).filter((line) => line.msg === 'connections refused');
    expect(logged[0]).toMatchObject({ limit: 'limits.connections_total', max: 20 });
    expect(logged.length).toBeLessThan(10);
  });

  it('closes a connection over limits.connections_per_address, while other addresses still connect', async () => {
    // Addresses of their own: the metrics scrapes' pooled connections come from 127.0.0.1.
    const held = await openMany(port, 5, '127.0.0.6');
    const extra = await RawConnection.open(port, '127.0.0.6');
    await extra.ended;
    expect(extra.received).toBe('');
    const other = await RawConnection.open(port, '127.0.0.7');
    expect(await other.health()).toBe('HTTP/1.1 200 OK');
    expect(held.filter((connection) => connection.closed)).toEqual([]);

    await Promise.all([...held, other].map((connection) => connection.close()));
    const after = await healthAnswered(port, '127.0.0.6');
    expect(after.status).toBe('HTTP/1.1 200 OK');
    expect(await refusals(gateway.baseUrl, 'connections_per_address')).toBe(1 + after.refused);
  });
});

describe('headers and request timeouts', () => {
  let gateway: HttpGatewayHandle;
  let port: number;

  beforeAll(async () => {
    gateway = await startHttpGateway({
      config: { http: { headers_timeout_seconds: 1, request_timeout_seconds: 2 } },
    });
    port = Number(new URL(gateway.baseUrl).port);
  });

  afterAll(() => gateway?.close());

  it('answers 408 and closes a connection whose headers never end, or that sends nothing', async () => {
    const dribbling = await RawConnection.open(port);
    dribbling.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1');
    const silent = await RawConnection.open(port);
    await Promise.all([dribbling.ended, silent.ended]);
    expect(dribbling.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(silent.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers 408 and closes a request whose body never arrives', async () => {
    const connection = await RawConnection.open(port);
    connection.socket.write(
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{"jsonrpc":',
    );
    await connection.ended;
    expect(connection.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('keeps an idle keep-alive connection past the headers timeout (its next request is on time)', async () => {
    const connection = await RawConnection.open(port);
    expect(await connection.health()).toBe('HTTP/1.1 200 OK');
    connection.received = '';
    // Idle longer than the headers timeout, within the keep-alive timeout (5 s).
    await delay(1_500);
    expect(await connection.health()).toBe('HTTP/1.1 200 OK');
    await connection.close();
  });
});
