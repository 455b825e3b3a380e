import { DEFAULT_CONFIG } from '../config/config.defaults';
import { AuthConfig } from '../config/gateway-config';
import { adminAccess, adminApiOn, adminApiStartLine } from './admin-access.policy';

const TOKEN = 'a'.repeat(31) + 'Z';

function authWith(mode: AuthConfig['mode'], adminScope = ''): AuthConfig {
  return {
    ...DEFAULT_CONFIG.auth,
    mode,
    oauth: { ...DEFAULT_CONFIG.auth.oauth, admin_scope: adminScope },
  };
}

function startLine(auth: AuthConfig, env: NodeJS.ProcessEnv): Record<string, unknown> {
  return adminApiStartLine(adminAccess(auth, env), auth);
}

describe('whether the admin API is on', () => {
  it('is off without a token, and the start line says how to turn it on', () => {
    const auth = authWith('none');
    expect(adminApiOn(adminAccess(auth, {}))).toBe(false);
    expect(startLine(auth, {})).toEqual({
      msg: 'admin API off',
      how: 'set MCP_SERVER_ADMIN_TOKEN (32+ characters, e.g. from owlclaw mcp-server keys create) to serve /admin',
    });
  });

  it('counts an empty token as unset', () => {
    expect(startLine(authWith('none'), { MCP_SERVER_ADMIN_TOKEN: '' }).msg).toBe('admin API off');
  });

  it('is on with a token of 32 characters, and the start line names the variable, never its value', () => {
    const line = startLine(authWith('api_key'), { MCP_SERVER_ADMIN_TOKEN: TOKEN });
    expect(line).toEqual({
      msg: 'admin API on',
      path: '/admin',
      credentials: ['MCP_SERVER_ADMIN_TOKEN'],
    });
    expect(JSON.stringify(line)).not.toContain(TOKEN);
  });

  it('refuses a token shorter than 32 characters instead of serving /admin behind it', () => {
    expect(() => adminAccess(authWith('none'), { MCP_SERVER_ADMIN_TOKEN: TOKEN.slice(1) })).toThrow(
      'MCP_SERVER_ADMIN_TOKEN is 31 characters long; it must be at least 32',
    );
  });

  it('is on through the admin scope in an OAuth mode, with or without the token', () => {
    const auth = authWith('oauth_or_api_key', 'owlclaw:admin');
    expect(startLine(auth, {})).toEqual({
      msg: 'admin API on',
      path: '/admin',
      credentials: ['access token with scope owlclaw:admin'],
    });
    expect(startLine(auth, { MCP_SERVER_ADMIN_TOKEN: TOKEN }).credentials).toEqual([
      'MCP_SERVER_ADMIN_TOKEN',
      'access token with scope owlclaw:admin',
    ]);
  });

  it('ignores the admin scope in a mode without OAuth', () => {
    expect(startLine(authWith('api_key', 'owlclaw:admin'), {}).msg).toBe('admin API off');
  });

  it('names the admin scope as a way to turn it on in an OAuth mode', () => {
    expect(startLine(authWith('oauth'), {}).how).toBe(
      'set MCP_SERVER_ADMIN_TOKEN (32+ characters, e.g. from owlclaw mcp-server keys create), or auth.oauth.admin_scope, to serve /admin',
    );
  });
});
