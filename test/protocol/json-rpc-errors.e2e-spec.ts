/**
 * Every JSON-RPC error code the foundation produces, over Streamable HTTP
 * (in-process gateway, a real session) and over stdio (a spawned fixture
 * gateway), written once as a table.
 */
import {
  BOOT_TIMEOUT_MS,
  expectRpcError,
  expectRpcResult,
  Frame,
  openAdapter,
  RpcAdapter,
  TRANSPORTS,
} from '../support/rpc-adapter';
import { killAllGateways } from '../support/tracked-gateways';

const SECRET = 'secret internal detail';
const INCIDENT = /incident [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
/** Every error of a request carries its W3C trace id (the one in its log lines and ledger row). */
const TRACE_ID = expect.stringMatching(/^[0-9a-f]{32}$/) as unknown;

interface ErrorRow {
  title: string;
  frame: Frame;
  code: number;
  /** The id the error must carry. */
  id: string | number | null;
  /** Status of the POST that carried it; the JSON-RPC error is the body either way. */
  httpStatus: number;
  message?: RegExp;
}

const req = (id: unknown, method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});

const PROTOCOL_ERRORS: ErrorRow[] = [
  {
    title: 'truncated JSON',
    frame: '{"jsonrpc":"2.0","id":1,"method":"ping"',
    code: -32700,
    id: null,
    httpStatus: 400,
    message: /^Parse error/,
  },
  {
    title: 'invalid UTF-8 bytes',
    frame: Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":2,"method":"fixture/echo","params":{"s":"'),
      Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
      Buffer.from('"}}'),
    ]),
    code: -32700,
    id: null,
    httpStatus: 400,
    message: /UTF-8/,
  },
  {
    title: 'jsonrpc member missing',
    frame: { id: 3, method: 'ping' },
    code: -32600,
    id: 3,
    httpStatus: 200,
    message: /jsonrpc/,
  },
  {
    title: 'jsonrpc "1.0"',
    frame: { jsonrpc: '1.0', id: 'v1', method: 'ping' },
    code: -32600,
    id: 'v1',
    httpStatus: 200,
    message: /jsonrpc/,
  },
  {
    title: 'method missing',
    frame: { jsonrpc: '2.0', id: 4 },
    code: -32600,
    id: 4,
    httpStatus: 200,
    message: /method/,
  },
  {
    title: 'method not a string',
    frame: req(5, 42 as unknown as string),
    code: -32600,
    id: 5,
    httpStatus: 200,
    message: /method/,
  },
  {
    title: 'params an array',
    frame: req(6, 'fixture/echo', [1, 2]),
    code: -32600,
    id: 6,
    httpStatus: 200,
    message: /params/,
  },
  {
    title: 'params a string',
    frame: req(7, 'fixture/echo', 'x'),
    code: -32600,
    id: 7,
    httpStatus: 200,
    message: /params/,
  },
  {
    title: 'id null',
    frame: req(null, 'ping'),
    code: -32600,
    id: null,
    httpStatus: 200,
    message: /id/,
  },
  {
    title: 'id boolean',
    frame: req(true, 'ping'),
    code: -32600,
    id: null,
    httpStatus: 200,
    message: /id/,
  },
  {
    title: 'id object',
    frame: req({ n: 1 }, 'ping'),
    code: -32600,
    id: null,
    httpStatus: 200,
    message: /id/,
  },
  {
    title: 'id float',
    frame: '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
    code: -32600,
    id: null,
    httpStatus: 200,
    message: /id/,
  },
  {
    title: 'empty batch []',
    frame: '[]',
    code: -32600,
    id: null,
    httpStatus: 400,
    message: /empty batch/,
  },
  {
    title: 'unknown method',
    frame: req('u1', 'no/such/method'),
    code: -32601,
    id: 'u1',
    httpStatus: 200,
    message: /no\/such\/method/,
  },
  {
    title: 'fixture/raise -32001 (tool not found)',
    frame: req(11, 'fixture/raise', { code: -32001, message: 'Tool not found: nope' }),
    code: -32001,
    id: 11,
    httpStatus: 200,
    message: /^Tool not found: nope$/,
  },
  {
    title: 'fixture/raise -32002 (resource not found)',
    frame: req(12, 'fixture/raise', { code: -32002 }),
    code: -32002,
    id: 12,
    httpStatus: 200,
    message: /^fixture error -32002$/,
  },
  {
    title: 'fixture/raise -32005 (execution error)',
    frame: req(15, 'fixture/raise', { code: -32005 }),
    code: -32005,
    id: 15,
    httpStatus: 200,
    message: /^fixture error -32005$/,
  },
];

afterAll(killAllGateways);

describe.each(TRANSPORTS)('JSON-RPC errors over %s', (transport) => {
  let rpc: RpcAdapter;

  beforeAll(async () => {
    rpc = await openAdapter(transport);
  }, BOOT_TIMEOUT_MS);

  afterAll(async () => {
    await rpc?.close();
  });

  describe('before initialize', () => {
    it('refuses a request with -32600', async () => {
      const reply = await rpc.send(req(99, 'fixture/echo', { a: 1 }));
      if (transport === 'http') {
        // Without a session there is nothing to route to: the HTTP layer refuses it.
        expect(reply.status).toBe(400);
        const error = expectRpcError(reply, -32600, null);
        expect(error.message).toMatch(/Mcp-Session-Id/);
      } else {
        const error = expectRpcError(reply, -32600, 99);
        expect(error.message).toMatch(/not initialized/);
      }
    });

    it('answers initialize with bad params with -32602 naming the failing fields', async () => {
      const reply = await rpc.send(
        req('bad-init', 'initialize', { protocolVersion: 20250326, clientInfo: { name: '' } }),
      );
      const error = expectRpcError(reply, -32602, 'bad-init');
      const details = (error.data?.details ?? []) as string[];
      expect(details).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^protocolVersion /),
          expect.stringMatching(/^clientInfo\.name /),
          expect.stringMatching(/^clientInfo\.version /),
        ]),
      );
      expect(error.data?.retryable).toBe(false);
    });

    it('names a missing clientInfo', async () => {
      const reply = await rpc.send(
        req('bad-init-2', 'initialize', { protocolVersion: '2025-06-18' }),
      );
      const error = expectRpcError(reply, -32602, 'bad-init-2');
      expect(error.data?.details).toEqual(
        expect.arrayContaining([expect.stringMatching(/^clientInfo /)]),
      );
    });

    it('refuses capabilities that are null or not an object', async () => {
      for (const capabilities of [null, 'all', []]) {
        const reply = await rpc.send(
          req('bad-caps', 'initialize', {
            protocolVersion: '2025-06-18',
            capabilities,
            clientInfo: { name: 'c', version: '1' },
          }),
        );
        const error = expectRpcError(reply, -32602, 'bad-caps');
        expect(error.data?.details).toEqual(
          expect.arrayContaining([expect.stringMatching(/^capabilities /)]),
        );
      }
    });

    it('still initializes after the failed attempts', async () => {
      const response = await rpc.initialize('2025-06-18');
      expect(response).toMatchObject({
        jsonrpc: '2.0',
        id: 'init',
        result: { protocolVersion: '2025-06-18', serverInfo: { name: 'owlclaw-mcp-gateway' } },
      });
    });
  });

  describe('after initialize', () => {
    it.each(PROTOCOL_ERRORS)('$title -> $code', async (row) => {
      const reply = await rpc.send(row.frame);
      if (transport === 'http') expect(reply.status).toBe(row.httpStatus);
      const error = expectRpcError(reply, row.code, row.id);
      if (row.message) expect(error.message).toMatch(row.message);
      expect(error.data).toEqual(
        expect.objectContaining({ retryable: expect.any(Boolean), traceId: TRACE_ID }),
      );
      expect(error.data).not.toHaveProperty('stack');
    });

    it('initialize a second time -> -32600', async () => {
      const reply = await rpc.send(
        req('again', 'initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        }),
      );
      if (transport === 'http') {
        // An initialize POST always opens a fresh session over HTTP: it succeeds there.
        expectRpcResult(reply, 'again');
      } else {
        expect(expectRpcError(reply, -32600, 'again').message).toMatch(/already initialized/);
      }
    });

    it('logging/setLevel with a bad level -> -32602 naming the field', async () => {
      const reply = await rpc.send(req('lvl', 'logging/setLevel', { level: 'loud' }));
      const error = expectRpcError(reply, -32602, 'lvl');
      expect(error.data).toEqual({
        field: 'level',
        received: 'loud',
        retryable: false,
        traceId: TRACE_ID,
      });
      expect(error.message).toMatch(/debug, info, notice, warning, error/);
      expectRpcResult(
        await rpc.send(req('lvl-ok', 'logging/setLevel', { level: 'debug' })),
        'lvl-ok',
      );
    });

    it('-32003 carries data.retryable and data.retry_after from the error', async () => {
      const reply = await rpc.send(
        req('g', 'fixture/raise', { code: -32003, message: 'quota exceeded', retry_after: 42 }),
      );
      const error = expectRpcError(reply, -32003, 'g');
      expect(error.message).toBe('quota exceeded');
      expect(error.data).toEqual({ retryable: false, retry_after: 42, traceId: TRACE_ID });
    });

    it('-32004 is retryable', async () => {
      const reply = await rpc.send(req(14, 'fixture/raise', { code: -32004 }));
      const error = expectRpcError(reply, -32004, 14);
      expect(error.data).toEqual({ retryable: true, traceId: TRACE_ID });
    });

    it('an unexpected error -> -32603 with an incident id and no internals', async () => {
      const reply = await rpc.send(req('boom', 'fixture/raise', { plain: true }));
      const error = expectRpcError(reply, -32603, 'boom');
      expect(error.message).toMatch(INCIDENT);
      expect(error.message).not.toContain(SECRET);
      expect(reply.raw).not.toContain(SECRET);
      expect(error.data).toEqual({
        retryable: true,
        incident_id: expect.any(String),
        traceId: TRACE_ID,
      });
      expect(error.message).toContain(error.data?.incident_id as string);
      expect(error.data).not.toHaveProperty('stack');
    });

    it('a result that cannot be serialized -> -32603 for its id, never a broken line', async () => {
      for (const kind of ['bigint', 'cycle']) {
        const reply = await rpc.send(req(`bad-${kind}`, 'fixture/unserializable', { kind }));
        const error = expectRpcError(reply, -32603, `bad-${kind}`);
        expect(error.message).toMatch(/could not be serialized as JSON/);
        expect(error.data).toEqual({ retryable: false, traceId: TRACE_ID });
      }
    });

    it('a good request still works after all of that', async () => {
      const result = expectRpcResult(await rpc.send(req(0, 'fixture/echo', { ok: true })), 0);
      expect(result).toMatchObject({ params: { ok: true } });
    });
  });
});

describe.each(TRANSPORTS)('dev mode over %s', (transport) => {
  let rpc: RpcAdapter;

  beforeAll(async () => {
    rpc = await openAdapter(transport, { devMode: true });
    await rpc.initialize();
  }, BOOT_TIMEOUT_MS);

  afterAll(async () => {
    await rpc?.close();
  });

  it('adds data.stack to an unexpected error, still without the message in error.message', async () => {
    const reply = await rpc.send(req('dev', 'fixture/raise', { plain: true }));
    const error = expectRpcError(reply, -32603, 'dev');
    expect(error.message).toMatch(INCIDENT);
    expect(error.message).not.toContain(SECRET);
    expect(error.data?.stack).toEqual(expect.stringContaining('fixture-methods'));
  });

  it('adds data.stack to gateway errors too', async () => {
    const reply = await rpc.send(req('dev2', 'fixture/raise', { code: -32005 }));
    const error = expectRpcError(reply, -32005, 'dev2');
    expect(error.data?.stack).toEqual(expect.stringMatching(/^GatewayError: fixture error -32005/));
  });
});
