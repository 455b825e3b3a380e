import { createHash } from 'node:crypto';
import { API_KEY_ENTRY } from '../../config/config.constants';
import { DEFAULT_CONFIG } from '../../config/config.defaults';
import { apiKeyEntry, newApiKey } from './api-key-entry';
import { ApiKeys } from './api-keys';

const sha = (key: string) => createHash('sha256').update(key).digest('hex');

describe('ApiKeys', () => {
  const keys = new ApiKeys({
    ...DEFAULT_CONFIG,
    auth: {
      ...DEFAULT_CONFIG.auth,
      mode: 'api_key',
      api_keys: [`alpha:${sha('key-a')}`, `tenant:bot:${sha('key-b')}`],
    },
  });

  it('maps a key to its client by its SHA-256, client ids with colons included', () => {
    expect(keys.clientFor('key-a')).toBe('alpha');
    expect(keys.clientFor('key-b')).toBe('tenant:bot');
  });

  it('knows no other key', () => {
    expect(keys.clientFor('key-c')).toBeUndefined();
    expect(keys.clientFor('')).toBeUndefined();
    expect(keys.clientFor(sha('key-a'))).toBeUndefined();
  });

  it('tells key holders from other client ids', () => {
    expect(keys.holds('alpha')).toBe(true);
    expect(keys.holds('tenant:bot')).toBe(true);
    expect(keys.holds('stdio-client')).toBe(false);
  });

  it('accepts a new key through the entry made for it, and only that key', () => {
    const key = newApiKey();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newApiKey()).not.toBe(key);
    const entry = apiKeyEntry('tenant:carol', key);
    expect(entry).toMatch(API_KEY_ENTRY);
    const withEntry = new ApiKeys({
      ...DEFAULT_CONFIG,
      auth: { ...DEFAULT_CONFIG.auth, mode: 'api_key', api_keys: [entry] },
    });
    expect(withEntry.clientFor(key)).toBe('tenant:carol');
    expect(withEntry.clientFor(newApiKey())).toBeUndefined();
  });
});
