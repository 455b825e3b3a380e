import { anonymousRemoteBindWarning } from './anonymous-remote-bind.warning';

describe('anonymousRemoteBindWarning', () => {
  it.each(['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.0.2'])(
    'stays silent on the loopback bind %s without auth',
    (host) => {
      expect(anonymousRemoteBindWarning({ host, authMode: 'none', metricsOpen: true })).toBe(
        undefined,
      );
    },
  );

  it('warns on 0.0.0.0 without auth, naming the address, the open /metrics and the keys', () => {
    const warning = anonymousRemoteBindWarning({
      host: '0.0.0.0',
      authMode: 'none',
      metricsOpen: true,
    });
    expect(warning).toContain('bound to 0.0.0.0');
    expect(warning).toContain('anonymous');
    expect(warning).toContain('/metrics is open');
    expect(warning).toContain('auth.mode');
    expect(warning).toContain('http.host');
  });

  it('warns on :: without auth', () => {
    expect(
      anonymousRemoteBindWarning({ host: '::', authMode: 'none', metricsOpen: true }),
    ).toContain('bound to ::,');
  });

  it('leaves /metrics out when MCP_SERVER_METRICS_TOKEN guards it', () => {
    const warning = anonymousRemoteBindWarning({
      host: '0.0.0.0',
      authMode: 'none',
      metricsOpen: false,
    });
    expect(warning).toContain('anonymous');
    expect(warning).not.toContain('/metrics');
  });

  it.each(['api_key', 'oauth', 'oauth_or_api_key'] as const)(
    'stays silent on 0.0.0.0 with auth.mode: %s',
    (authMode) => {
      expect(anonymousRemoteBindWarning({ host: '0.0.0.0', authMode, metricsOpen: true })).toBe(
        undefined,
      );
    },
  );
});
