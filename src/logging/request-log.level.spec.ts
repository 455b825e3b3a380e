import { requestLogLevel } from './request-log.level';

describe('the level of a failed request line', () => {
  it("logs the client's mistakes at info", () => {
    for (const code of [-32700, -32600, -32601, -32602, -32001, -32002, -32003, -32020, -32022]) {
      expect(requestLogLevel({ code, message: 'm' })).toBe('log');
    }
  });

  it('logs a tool that failed or timed out as a warning', () => {
    expect(
      requestLogLevel({ code: -32005, message: 'm', data: { code: 'mcp_upstream_error' } }),
    ).toBe('warn');
    expect(requestLogLevel({ code: -32004, message: 'm' })).toBe('warn');
  });

  it('logs gateway faults as errors: internal errors, an unreachable upstream', () => {
    expect(requestLogLevel({ code: -32603, message: 'm', data: { incident_id: 'i' } })).toBe(
      'error',
    );
    expect(
      requestLogLevel({ code: -32603, message: 'm', data: { reason: 'ledger_unavailable' } }),
    ).toBe('error');
    expect(requestLogLevel({ code: -32005, message: 'm', data: { code: 'mcp_unavailable' } })).toBe(
      'error',
    );
  });

  it('reads error data of any shape', () => {
    expect(requestLogLevel({ code: -32005, message: 'm', data: null })).toBe('warn');
    expect(requestLogLevel({ code: -32602, message: 'm', data: 'text' })).toBe('log');
  });
});
