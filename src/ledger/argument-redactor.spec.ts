import { DEFAULT_CONFIG } from '../config/config.defaults';
import { ArgumentRedactor, keyWords, REDACTED } from './argument-redactor';

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

describe('ArgumentRedactor with the default ledger.redact_keys', () => {
  const redactor = new ArgumentRedactor(DEFAULT_CONFIG.ledger.redact_keys);
  const redacts = (key: string) =>
    (redactor.redact({ [key]: 'v' }) as Record<string, unknown>)[key] === REDACTED;

  it.each([
    'password',
    'userPassword',
    'passwd',
    'pwd',
    'DB_PWD',
    'pass',
    'db_pass',
    'passphrase',
    'secret',
    'client_secret',
    'access_token',
    'refreshToken',
    'apiKey',
    'x-api-key',
    'API_KEY',
    'private_key',
    'private-key',
    'privateKey',
    'Authorization',
    'auth',
    'basic_auth',
    'X-Auth',
    'oauth',
    'bearer',
    'bearerToken',
    'credential',
    'credentials',
    'cookie',
    'Cookie',
    'Set-Cookie',
    'cookies',
    'session',
    'sessionId',
    'session_id',
    'SESSION_TOKEN',
  ])('redacts %s', (key) => expect(redacts(key)).toBe(true));

  it.each([
    'passenger',
    'bypass',
    'compass',
    'passage',
    'author',
    'authority',
    'sessionCount',
    'session_start',
    'sessions',
    'username',
    'email',
    'orderId',
    'keyword',
  ])('keeps %s', (key) => expect(redacts(key)).toBe(false));

  it('redacts nested objects, arrays of objects and the whole value under a sensitive key', () => {
    expect(
      redactor.redact({
        user: 'ada',
        credentials: { user: 'ada', pass: 'hunter2' },
        login: { pass: 'p', passenger: 'Bob' },
        accounts: [{ id: 1, pwd: 'x' }, [{ cookie: 'c', sessionCount: 3 }]],
      }),
    ).toEqual({
      user: 'ada',
      credentials: REDACTED,
      login: { pass: REDACTED, passenger: 'Bob' },
      accounts: [{ id: 1, pwd: REDACTED }, [{ cookie: REDACTED, sessionCount: 3 }]],
    });
  });
});

describe('ArgumentRedactor paths and words', () => {
  it('matches a pattern against parent.key in words, arrays being transparent', () => {
    const redactor = new ArgumentRedactor(['card\\.number$']);
    expect(
      redactor.redact({
        card: { number: '4111', holder: 'Ada' },
        cards: [{ number: '1' }],
        Card: [{ Number: '5500' }],
        number: 7,
      }),
    ).toEqual({
      card: { number: REDACTED, holder: 'Ada' },
      cards: [{ number: '1' }],
      Card: [{ Number: REDACTED }],
      number: 7,
    });
  });

  it('splits keys into lower-case words at separators and case changes', () => {
    expect(keyWords('x-api-key')).toBe('x_api_key');
    expect(keyWords('xApiKey')).toBe('x_api_key');
    expect(keyWords('APIKey')).toBe('api_key');
    expect(keyWords('sessionCount')).toBe('session_count');
    expect(keyWords('__Set--Cookie__')).toBe('set_cookie');
    expect(keyWords('key2Value')).toBe('key2_value');
    expect(keyWords('')).toBe('');
  });

  it('keeps a key named __proto__ as a plain key and never touches prototypes', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true, "token": "t"}}') as object;
    const out = new ArgumentRedactor(['token']).redact(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true,"token":"[REDACTED]"}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('redacts a long upper-case key and a wide object key by key', () => {
    const redactor = new ArgumentRedactor(DEFAULT_CONFIG.ledger.redact_keys);
    const wide = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`field${i}`, i]));
    const longKey = 'A'.repeat(200_000);
    const redacted = redactor.redact({ [longKey]: 1, ...wide, API_TOKEN: 's' }) as Record<
      string,
      unknown
    >;
    expect(Object.keys(redacted)).toHaveLength(50_002);
    expect(redacted[longKey]).toBe(1);
    expect(redacted.field49999).toBe(49_999);
    expect(redacted.API_TOKEN).toBe('[REDACTED]');
  });
});

describe('ArgumentRedactor on text (error messages)', () => {
  const redactor = new ArgumentRedactor(DEFAULT_CONFIG.ledger.redact_keys);

  it('redacts the value of every sensitive key=value, key: value and "key": "value" pair', () => {
    expect(redactor.redactText('connect failed: password=hunter2 host=db1')).toBe(
      'connect failed: password=[REDACTED] host=db1',
    );
    expect(redactor.redactText('bad header X-Api-Key: abc123, retry')).toBe(
      'bad header X-Api-Key: [REDACTED], retry',
    );
    expect(redactor.redactText('rejected {"token": "t-1 2", "user":"ann"}')).toBe(
      'rejected {"token": "[REDACTED]", "user":"ann"}',
    );
    expect(redactor.redactText("auth clientSecret='s e'; passenger=ann")).toBe(
      "auth clientSecret='[REDACTED]'; passenger=ann",
    );
  });

  it('leaves text without sensitive pairs as it is, and everything when no pattern is set', () => {
    const text = 'Tool not found: orders_get (retry: no)';
    expect(redactor.redactText(text)).toBe(text);
    expect(new ArgumentRedactor([]).redactText('password=hunter2')).toBe('password=hunter2');
  });
});
