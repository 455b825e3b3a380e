import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ADMIN_TOKEN_ENV } from '../../src/admin/admin.constants';
import { LedgerRow } from '../../src/ledger/ledger-row';
import { LEDGER_STORE, LedgerStore } from '../../src/ledger/ledger-store';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { makeTempDir, removeDir } from '../support/skills-dir';

/**
 * GET /admin/ledger and GET /admin/openapi.json on the real HTTP gateway:
 * hidden (404) without MCP_SERVER_ADMIN_TOKEN, 401 on a wrong token,
 * filtered and cursor-paged with the right one.
 */

const TOKEN = 'admin-e2e-token-8f3a-0123456789abcdef';
const T0 = Date.UTC(2026, 2, 14, 12, 0, 0);

let dir: string;
const savedToken = process.env[ADMIN_TOKEN_ENV];

beforeAll(() => {
  dir = makeTempDir('admin-ledger');
});

afterAll(() => {
  if (savedToken === undefined) delete process.env[ADMIN_TOKEN_ENV];
  else process.env[ADMIN_TOKEN_ENV] = savedToken;
  removeDir(dir);
});

/** The guard reads the token when the app is built, so the variable is set around creation only. */
async function gatewayWithToken(
  token: string | undefined,
  name: string,
): Promise<HttpGatewayHandle> {
  if (token === undefined) delete process.env[ADMIN_TOKEN_ENV];
  else process.env[ADMIN_TOKEN_ENV] = token;
  try {
    // retention_days 0: the rows below are dated March 2026, older than the default 90 days; the
    // boot prune, which may finish after they are appended, must not take them away.
    return await startHttpGateway({
      config: { ledger: { sqlite_path: join(dir, name, 'l.db'), retention_days: 0 } },
    });
  } finally {
    if (savedToken === undefined) delete process.env[ADMIN_TOKEN_ENV];
    else process.env[ADMIN_TOKEN_ENV] = savedToken;
  }
}

interface LedgerPage {
  items: Array<Record<string, unknown> & { requestId: string }>;
  nextCursor?: string;
}

/** The parts of the OpenAPI document the test reads. */
interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<
    string,
    Record<
      string,
      {
        parameters: Array<{ name: string; in: string }>;
        security: unknown;
        responses: Record<string, unknown>;
      }
    >
  >;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, { properties: Record<string, { enum?: string[] }> }>;
  };
}

interface ErrorBody {
  statusCode: number;
  message: string;
  field: string;
}

function row(i: number, overrides: Partial<LedgerRow> = {}): LedgerRow {
  return {
    time: T0 + i * 60_000,
    requestId: `n:${i}`,
    traceId: `trace-${i}`,
    clientId: i % 2 === 0 ? 'alpha' : 'beta',
    sessionId: 'session-admin',
    transport: 'streamable-http',
    method: 'tools/call',
    target: i < 4 ? 'orders_get' : 'inventory_search',
    arguments: JSON.stringify({ i }),
    outcome: i === 5 ? 'denied' : 'success',
    errorCode: i === 5 ? -32003 : null,
    denialReason: i === 5 ? 'rate_limited' : null,
    durationMs: 3,
    cost: i === 5 ? 0 : 1,
    resultBytes: i === 5 ? 0 : 10,
    costFlag: null,
    errorMessage: i === 5 ? 'Rate limit exceeded: 4 calls per minute; retry in 9 s' : null,
    resultSha256: i === 5 ? null : createHash('sha256').update(`{"i":${i}}`).digest('hex'),
    upstreamServer: i === 6 ? 'orders' : null,
    upstreamTool: i === 6 ? 'get_order' : null,
    subject: i === 4 ? 'user-8c1f' : null,
    tokenId: i === 4 ? 'jti-4' : null,
    ...overrides,
  };
}

describe('admin API without MCP_SERVER_ADMIN_TOKEN', () => {
  let gateway: HttpGatewayHandle;
  beforeAll(async () => {
    gateway = await gatewayWithToken(undefined, 'disabled');
  });
  afterAll(() => gateway.close());

  it('answers 404 for the ledger and the OpenAPI document, token or not', async () => {
    for (const path of ['/admin/ledger', '/admin/openapi.json']) {
      const bare = await fetch(`${gateway.baseUrl}${path}`);
      expect(bare.status).toBe(404);
      await bare.arrayBuffer();
      const withToken = await fetch(`${gateway.baseUrl}${path}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(withToken.status).toBe(404);
      await withToken.arrayBuffer();
    }
  });
});

describe('admin API with MCP_SERVER_ADMIN_TOKEN', () => {
  let gateway: HttpGatewayHandle;
  const get = async <T = LedgerPage>(path: string, token: string | null = TOKEN) => {
    const res = await fetch(`${gateway.baseUrl}${path}`, {
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
    });
    return { status: res.status, body: (await res.json()) as T };
  };
  const ids = (body: LedgerPage) => body.items.map((item) => item.requestId);

  beforeAll(async () => {
    gateway = await gatewayWithToken(TOKEN, 'enabled');
    const store = gateway.app.get<LedgerStore>(LEDGER_STORE);
    await store.append(Array.from({ length: 7 }, (_, i) => row(i)));
  });
  afterAll(() => gateway.close());

  it('refuses a missing or wrong bearer token with 401', async () => {
    expect((await get('/admin/ledger', null)).status).toBe(401);
    expect((await get('/admin/ledger', 'wrong-token')).status).toBe(401);
    expect((await get('/admin/openapi.json', 'wrong-token')).status).toBe(401);
  });

  it('lists rows newest first with every field, paging by opaque cursor', async () => {
    const first = await get('/admin/ledger?limit=3');
    expect(first.status).toBe(200);
    expect(ids(first.body)).toEqual(['n:6', 'n:5', 'n:4']);
    expect(first.body.items[1]).toMatchObject({
      requestId: 'n:5',
      clientId: 'beta',
      target: 'inventory_search',
      outcome: 'denied',
      errorCode: -32003,
      denialReason: 'rate_limited',
      errorMessage: 'Rate limit exceeded: 4 calls per minute; retry in 9 s',
      resultSha256: null,
      resultBytes: 0,
      cost: 0,
      upstreamServer: null,
      upstreamTool: null,
      subject: null,
      tokenId: null,
      arguments: { i: 5 },
      time: T0 + 5 * 60_000,
      timestamp: new Date(T0 + 5 * 60_000).toISOString(),
    });
    expect(first.body.items[0]).toMatchObject({
      errorMessage: null,
      resultSha256: createHash('sha256').update('{"i":6}').digest('hex'),
      resultBytes: 10,
      upstreamServer: 'orders',
      upstreamTool: 'get_order',
    });
    expect(first.body.items[2]).toMatchObject({
      requestId: 'n:4',
      subject: 'user-8c1f',
      tokenId: 'jti-4',
    });
    expect(typeof first.body.nextCursor).toBe('string');
    expect(first.body.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);

    const second = await get(`/admin/ledger?limit=3&cursor=${first.body.nextCursor}`);
    expect(ids(second.body)).toEqual(['n:3', 'n:2', 'n:1']);
    const last = await get(`/admin/ledger?limit=3&cursor=${second.body.nextCursor}`);
    expect(ids(last.body)).toEqual(['n:0']);
    expect(last.body.nextCursor).toBeUndefined();

    const all = await get('/admin/ledger');
    expect(all.body.items).toHaveLength(7); // default limit 100
    expect(all.body.nextCursor).toBeUndefined();
  });

  it('filters by client, target, outcome and a from/to window (ISO or epoch ms)', async () => {
    expect(ids((await get('/admin/ledger?client=alpha')).body)).toEqual([
      'n:6',
      'n:4',
      'n:2',
      'n:0',
    ]);
    expect(ids((await get('/admin/ledger?target=orders_get&client=beta')).body)).toEqual([
      'n:3',
      'n:1',
    ]);
    expect(ids((await get('/admin/ledger?outcome=denied')).body)).toEqual(['n:5']);
    const from = new Date(T0 + 2 * 60_000).toISOString();
    expect(ids((await get(`/admin/ledger?from=${from}&to=${T0 + 4 * 60_000}`)).body)).toEqual([
      'n:3',
      'n:2',
    ]);
    expect(ids((await get('/admin/ledger?from=2026-03-14&to=2026-03-15&limit=2')).body)).toEqual([
      'n:6',
      'n:5',
    ]);
  });

  it.each([
    ['limit=501', 'limit'],
    ['limit=0', 'limit'],
    ['limit=ten', 'limit'],
    ['from=yesterday', 'from'],
    ['to=2026-03-14T12:00:00', 'to'],
    ['from=2026-03-15&to=2026-03-14', 'from'],
    ['outcome=exploded', 'outcome'],
    ['cursor=not-a-cursor', 'cursor'],
    ['client=a&client=b', 'client'],
    ['client_id=alpha', 'client_id'],
  ])('answers 400 naming the bad filter for ?%s', async (query, field) => {
    const res = await get<ErrorBody>(`/admin/ledger?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, field });
    expect(res.body.message).toMatch(new RegExp(`^${field}: `));
  });

  it('serves an OpenAPI 3 document of the admin endpoints', async () => {
    const { status, body: doc } = await get<OpenApiDocument>('/admin/openapi.json');
    expect(status).toBe(200);
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info).toMatchObject({ title: 'OwlClaw MCP Gateway admin API' });
    const paths = Object.keys(doc.paths);
    expect(paths).toContain('/admin/ledger');
    // Admin endpoints only (other admin controllers may add theirs); the document itself is not one.
    expect(paths.filter((path) => !path.startsWith('/admin/'))).toEqual([]);
    expect(paths).not.toContain('/admin/openapi.json');
    const operation = doc.paths['/admin/ledger'].get;
    expect(operation.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining([
        'query:client',
        'query:target',
        'query:outcome',
        'query:from',
        'query:to',
        'query:limit',
        'query:cursor',
      ]),
    );
    expect(operation.security).toEqual([{ 'admin-token': [] }]);
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '404']),
    );
    expect(doc.components.securitySchemes['admin-token']).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(doc.components.schemas.LedgerPageDto).toBeDefined();
    expect(Object.keys(doc.components.schemas.LedgerEntryDto.properties)).toEqual(
      expect.arrayContaining([
        'errorMessage',
        'resultSha256',
        'resultBytes',
        'upstreamServer',
        'upstreamTool',
        'subject',
        'tokenId',
      ]),
    );
    expect(doc.components.schemas.LedgerEntryDto.properties.outcome.enum).toEqual([
      'success',
      'tool_error',
      'denied',
      'timeout',
      'cancelled',
      'error',
      'input_required',
    ]);
  });
});
