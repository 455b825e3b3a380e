import { anonymousRemoteBindWarning } from './anonymous-remote-bind.warning';

describe('anonymousRemoteBindWarning', () => {
  it.each(['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.0.2'])(
    'stays silent on the loopback bind %s without auth',
    (host) => {
      expect(anonymousRemoteBindWarning({ host, authMode: 'none' })).toBe(undefined);
    },
  );

  it('warns on 0.0.0.0 without auth, naming the address and the keys (not /metrics: its guard warns)', () => {
    const warning = anonymousRemoteBindWarning({
      host: '0.0.0.0',
      authMode: 'none',
    });
    expect(warning).toContain('bound to 0.0.0.0');
    expect(warning).toContain('anonymous');
    expect(warning).not.toContain('/metrics');
    expect(warning).toContain('auth.mode');
    expect(warning).toContain('http.host');
  });

  it('warns on :: without auth', () => {
    expect(anonymousRemoteBindWarning({ host: '::', authMode: 'none' })).toContain('bound to ::,');
  });

  it.each(['api_key', 'oauth', 'oauth_or_api_key'] as const)(
    'stays silent on 0.0.0.0 with auth.mode: %s',
    (authMode) => {
      expect(anonymousRemoteBindWarning({ host: '0.0.0.0', authMode })).toBe(undefined);
    },
  );
});
