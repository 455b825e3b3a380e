import { ArgumentRedactor, REDACTED } from './argument-redactor';

describe('ArgumentRedactor', () => {
  const redactor = new ArgumentRedactor(['password', 'secret', 'token', 'api[_-]?key']);

  it('redacts matching keys case-insensitively, anywhere in the key, at any depth', () => {
    expect(
      redactor.redact({
        user: 'ada',
        Password: 'hunter2',
        nested: { ACCESS_TOKEN: 'abc', keep: 1, deeper: { 'x-api-key': 'k' } },
        list: [{ client_secret: 's', id: 7 }, 'plain', [{ apiKey: 'k2' }]],
      }),
    ).toEqual({
      user: 'ada',
      Password: REDACTED,
      nested: { ACCESS_TOKEN: REDACTED, keep: 1, deeper: { 'x-api-key': REDACTED } },
      list: [{ client_secret: REDACTED, id: 7 }, 'plain', [{ apiKey: REDACTED }]],
    });
  });

  it('replaces a whole nested value under a sensitive key and leaves scalars alone', () => {
    expect(redactor.redact({ secret: { a: 1 } })).toEqual({ secret: REDACTED });
    expect(redactor.redact('token')).toBe('token');
    expect(redactor.redact(null)).toBeNull();
    expect(new ArgumentRedactor([]).redact({ password: 'x' })).toEqual({ password: 'x' });
  });

  it('refuses an invalid pattern, naming the config key', () => {
    expect(() => new ArgumentRedactor(['(unclosed'])).toThrow(/ledger\.redact_keys: "\(unclosed"/);
  });
});
