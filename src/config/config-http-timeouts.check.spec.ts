import { loadGatewayConfig } from './config.loader';

describe('http timeouts at boot', () => {
  const load = (http: { headers_timeout_seconds: number; request_timeout_seconds: number }) =>
    loadGatewayConfig({ env: {}, overrides: { transport: 'http', http } });

  it('refuses a request timeout shorter than the headers timeout, naming the key', () => {
    expect(() => load({ headers_timeout_seconds: 30, request_timeout_seconds: 10 })).toThrow(
      'mcp_server.http.request_timeout_seconds: must be at least mcp_server.http.headers_timeout_seconds (30)',
    );
  });

  it('accepts equal timeouts', () => {
    const config = load({ headers_timeout_seconds: 5, request_timeout_seconds: 5 });
    expect(config.http.request_timeout_seconds).toBe(5);
  });
});
