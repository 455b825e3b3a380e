import { ADMIN_TOKEN_ENV } from '../../src/admin/admin.constants';
import { HttpGatewayChild } from '../support/http-child';
import { logLines } from '../support/log-lines';
import { allOrNothing } from '../support/governed-clients';
import { testGatewayEnv } from '../support/test-defaults';

/**
 * The /admin routes are logged as mapped whether or not they answer: the
 * HTTP gateway's start log says which, before `listening`, and what turns the
 * admin API on. Each line is checked against what /admin then answers.
 */
const TOKEN = 'start-line-admin-token-0123456789abcdef';

describe("the HTTP gateway's admin API start line", () => {
  let off: HttpGatewayChild;
  let on: HttpGatewayChild;

  beforeAll(async () => {
    const env = { MCP_SERVER_HTTP_HOST: '127.0.0.1', MCP_SERVER_HTTP_PORT: '0' };
    [off, on] = await allOrNothing([
      HttpGatewayChild.start({ ...testGatewayEnv(), ...env }),
      HttpGatewayChild.start({ ...testGatewayEnv(), ...env, [ADMIN_TOKEN_ENV]: TOKEN }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([off?.stop(), on?.stop()]);
  });

  /** The admin line, checked to come before `listening`. */
  function adminLine(gateway: HttpGatewayChild): Record<string, unknown> {
    const lines = logLines(gateway.stderr);
    const admin = lines.findIndex((line) => String(line.msg).startsWith('admin API'));
    expect(admin).toBeGreaterThanOrEqual(0);
    expect(admin).toBeLessThan(lines.findIndex((line) => line.msg === 'listening'));
    expect(lines.filter((line) => String(line.msg).startsWith('admin API'))).toHaveLength(1);
    return lines[admin];
  }

  it('says the admin API is off, and how to turn it on, when the token is unset; /admin is 404', async () => {
    expect(adminLine(off)).toMatchObject({
      msg: 'admin API off',
      how: 'set MCP_SERVER_ADMIN_TOKEN (32+ characters, e.g. from owlclaw mcp-server keys create) to serve /admin',
    });
    const res = await fetch(`${off.baseUrl}/admin/openapi.json`, {
      headers: { Authorization: `Bearer ${TOKEN}`, Connection: 'close' },
    });
    expect(res.status).toBe(404);
  });

  it('says the admin API is on under /admin when the token is set, never logging it; /admin answers', async () => {
    expect(adminLine(on)).toMatchObject({
      msg: 'admin API on',
      path: '/admin',
      credentials: [ADMIN_TOKEN_ENV],
    });
    expect(on.stderr).not.toContain(TOKEN);
    const res = await fetch(`${on.baseUrl}/admin/openapi.json`, {
      headers: { Authorization: `Bearer ${TOKEN}`, Connection: 'close' },
    });
    expect(res.status).toBe(200);
  });
});
