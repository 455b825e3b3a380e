import { MIN_BEARER_SECRET_CHARS } from './bearer-secret.policy';
import { BearerToken } from './bearer-token';

describe('BearerToken.fromEnv', () => {
  const NAME = 'MCP_SERVER_ADMIN_TOKEN';

  it('refuses a token shorter than the minimum, naming the variable and never quoting it', () => {
    for (const short of ['x', 'a'.repeat(MIN_BEARER_SECRET_CHARS - 1)]) {
      expect(() => BearerToken.fromEnv(NAME, { [NAME]: short })).toThrow(
        new RegExp(`^${NAME} is ${short.length} characters long; it must be at least 32`),
      );
    }
  });

  it('is off when the variable is unset or empty', () => {
    expect(BearerToken.fromEnv(NAME, {})).toBeUndefined();
    expect(BearerToken.fromEnv(NAME, { [NAME]: '' })).toBeUndefined();
  });

  it('matches only its own token, from 32 characters on', () => {
    const token = 'k'.repeat(MIN_BEARER_SECRET_CHARS);
    const bearer = BearerToken.fromEnv(NAME, { [NAME]: token });
    expect(bearer?.matches(`Bearer ${token}`)).toBe(true);
    expect(bearer?.matches(`Bearer ${token}x`)).toBe(false);
    expect(bearer?.matches(undefined)).toBe(false);
  });
});
