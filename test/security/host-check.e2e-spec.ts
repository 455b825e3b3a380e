/**
 * Finding 7, DNS rebinding: a page on attacker.example that rebinds its name
 * to 127.0.0.1 reaches a loopback-bound gateway with its own Host header. The
 * review saw the check on /mcp, /sse and /messages only; now every route
 * refuses a Host that is not loopback (or http.allowed_hosts), while a
 * non-loopback bind (a Kubernetes pod probed by its service name) is not
 * checked, as before.
 */
import { httpRequest } from '../robustness/support/limits-client';
import { HttpGatewayHandle, startHttpGateway } from '../support/http-gateway';
import { makeTempDir, removeDir, skillMarkdown, writeSkill } from '../support/skills-dir';

const ADMIN_TOKEN = 'host-check-admin-token-0123456789abcdef';
const REBOUND_HOST = 'attacker.example:8080';

/** Every kind of route the gateway serves, and a path it does not. */
const ROUTES = [
  '/health',
  '/health/ready',
  '/health/live',
  '/metrics',
  '/resources/skill/cat/one',
  '/admin/governance/stats',
  '/admin/governance/rules',
  '/admin/ledger',
  '/admin/openapi.json',
  '/mcp',
  '/mcp/sse',
  '/sse',
  '/nowhere',
];

describe('Host check on every route (finding 7)', () => {
  let skillsDir: string;
  let gateway: HttpGatewayHandle;

  beforeAll(async () => {
    skillsDir = makeTempDir('sec-host');
    writeSkill(skillsDir, 'cat', 'one', {
      'SKILL.md': skillMarkdown({ description: 'One skill' }, 'Body'),
    });
    process.env.MCP_SERVER_ADMIN_TOKEN = ADMIN_TOKEN;
    try {
      gateway = await startHttpGateway({ config: { resources: { skills_dir: skillsDir } } });
    } finally {
      delete process.env.MCP_SERVER_ADMIN_TOKEN;
    }
  });

  afterAll(async () => {
    await gateway?.close();
    removeDir(skillsDir);
  });

  const get = (path: string, host?: string, method = 'GET') =>
    httpRequest(`${gateway.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(host === undefined ? {} : { host }),
      },
    });

  it.each(ROUTES)('refuses GET %s under a rebound Host with 403', async (path) => {
    const answer = await get(path, REBOUND_HOST);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text)).toMatchObject({
      error: { message: expect.stringContaining(`Host "${REBOUND_HOST}" is not allowed`) },
    });
  });

  it('refuses other methods too (PUT admin rules, POST /messages, OPTIONS preflight)', async () => {
    for (const [method, path] of [
      ['PUT', '/admin/governance/rules'],
      ['POST', '/messages'],
      ['OPTIONS', '/metrics'],
      ['DELETE', '/mcp'],
    ]) {
      expect((await get(path, REBOUND_HOST, method)).status).toBe(403);
    }
  });

  it('still serves the same routes under loopback Host names', async () => {
    for (const host of [undefined, 'localhost', `127.0.0.1:${new URL(gateway.baseUrl).port}`]) {
      expect((await get('/health', host)).status).toBe(200);
      expect((await get('/health/ready', host)).status).toBe(200);
      expect((await get('/metrics', host)).status).toBe(200);
      expect((await get('/resources/skill/cat/one', host)).status).toBe(200);
      expect((await get('/admin/governance/stats', host)).status).toBe(200);
    }
  });
});

describe('no Host check on a non-loopback bind (probes by service name)', () => {
  let gateway: HttpGatewayHandle;

  beforeAll(async () => {
    gateway = await startHttpGateway({ config: { http: { host: '0.0.0.0' } } });
  });

  afterAll(() => gateway?.close());

  it('answers /health and /health/ready whatever the Host', async () => {
    for (const path of ['/health', '/health/ready']) {
      const answer = await httpRequest(`${gateway.baseUrl}${path}`, {
        headers: { host: 'owlclaw.default.svc.cluster.local:3000' },
      });
      expect(answer.status).toBe(200);
    }
  });
});

describe('Host check on a bind to another loopback address (127.0.0.2)', () => {
  let gateway: HttpGatewayHandle;
  let baseUrl: string;

  beforeAll(async () => {
    gateway = await startHttpGateway({ config: { http: { host: '127.0.0.2' } } });
    baseUrl = `http://127.0.0.2:${new URL(gateway.baseUrl).port}`;
  });

  afterAll(() => gateway?.close());

  const get = (path: string, host: string) =>
    httpRequest(`${baseUrl}${path}`, { headers: { host } });

  it('refuses a rebound Host on every GET route', async () => {
    for (const path of ['/health', '/health/ready', '/metrics', '/admin/governance/stats']) {
      const answer = await get(path, REBOUND_HOST);
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.text)).toMatchObject({
        error: { message: expect.stringContaining(`Host "${REBOUND_HOST}" is not allowed`) },
      });
    }
  });

  it('answers to its own address and the local names', async () => {
    const port = new URL(baseUrl).port;
    for (const host of [`127.0.0.2:${port}`, 'localhost', `127.0.0.1:${port}`, '[::1]']) {
      expect((await get('/health', host)).status).toBe(200);
    }
  });
});
