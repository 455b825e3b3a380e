import { ConfigValidationError } from './config-validation.error';
import { loadGatewayConfig } from './config.loader';
import { isToolNameSeparator } from './tool-name-separator.validator';

function loadWithEnv(env: Record<string, string>) {
  return loadGatewayConfig({ env, cwd: '/nonexistent-owlclaw-dir' });
}

function problemsWithEnv(env: Record<string, string>): readonly string[] {
  try {
    loadWithEnv(env);
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigValidationError');
}

describe('upstreams.separator and upstreams.allow_dots', () => {
  it('default to "__" and false', () => {
    const cfg = loadWithEnv({});
    expect(cfg.upstreams.separator).toBe('__');
    expect(cfg.upstreams.allow_dots).toBe(false);
  });

  it('accept 1 to 4 characters from "_" and "-"', () => {
    for (const separator of ['_', '-', '__', '--', '_-_-']) {
      expect(isToolNameSeparator(separator, false)).toBe(true);
    }
    expect(loadWithEnv({ MCP_SERVER_UPSTREAMS_SEPARATOR: '--' }).upstreams.separator).toBe('--');
  });

  it('refuse other separators, naming the key', () => {
    for (const separator of ['', '_____', '/', ':', ' ', 'ab', '.', '_._']) {
      expect(isToolNameSeparator(separator, false)).toBe(false);
    }
    const problems = problemsWithEnv({ MCP_SERVER_UPSTREAMS_SEPARATOR: '::' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('mcp_server.upstreams.separator: must be 1 to 4 characters');
  });

  it('accept "." only when allow_dots is true', () => {
    expect(problemsWithEnv({ MCP_SERVER_UPSTREAMS_SEPARATOR: '.' })[0]).toContain(
      'upstreams.allow_dots',
    );
    const cfg = loadWithEnv({
      MCP_SERVER_UPSTREAMS_SEPARATOR: '.',
      MCP_SERVER_UPSTREAMS_ALLOW_DOTS: 'true',
    });
    expect(cfg.upstreams).toMatchObject({ separator: '.', allow_dots: true });
    expect(isToolNameSeparator('_._', true)).toBe(true);
    expect(isToolNameSeparator('.....', true)).toBe(false);
    expect(isToolNameSeparator(':', true)).toBe(false);
  });
});
