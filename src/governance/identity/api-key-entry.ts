import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits: as many as the SHA-256 that stands for the key in the config. */
const API_KEY_BYTES = 32;

/** The SHA-256 of a key, the only form in which `auth.api_keys` holds it. */
export function apiKeyDigest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** A new random key in base64url: 43 characters that need no quoting in a header, YAML or a shell. */
export function newApiKey(): string {
  return randomBytes(API_KEY_BYTES).toString('base64url');
}

/** The `auth.api_keys` entry that gives `key` to `clientId`: `<client_id>:<sha256 hex>`. */
export function apiKeyEntry(clientId: string, key: string): string {
  return `${clientId}:${apiKeyDigest(key).toString('hex')}`;
}
