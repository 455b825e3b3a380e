import { Inject, Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { GATEWAY_CONFIG } from '../../config/config.constants';
import { GatewayConfig } from '../../config/gateway-config';
import { apiKeyDigest } from './api-key-entry';

interface KeyEntry {
  clientId: string;
  digest: Buffer;
}

/**
 * `auth.api_keys`: `<client_id>:<sha256 hex of the key>` entries. Keys are
 * never held in clear; a presented key is hashed and compared with every
 * entry in constant time.
 */
@Injectable()
export class ApiKeys {
  private readonly entries: KeyEntry[];
  private readonly holders: ReadonlySet<string>;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    // Client ids may contain ':'; the digest is always the last 64 characters.
    this.entries = config.auth.api_keys.map((entry) => {
      const at = entry.lastIndexOf(':');
      return { clientId: entry.slice(0, at), digest: Buffer.from(entry.slice(at + 1), 'hex') };
    });
    this.holders = new Set(this.entries.map((e) => e.clientId));
  }

  /** The client a key belongs to. Every entry is compared, so timing tells nothing about which. */
  clientFor(key: string): string | undefined {
    const digest = apiKeyDigest(key);
    let found: string | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(digest, entry.digest) && found === undefined) found = entry.clientId;
    }
    return found;
  }

  holds(clientId: string): boolean {
    return this.holders.has(clientId);
  }
}
