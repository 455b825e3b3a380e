import { errorChain } from './error-chain';
import { MASK, maskedUrl } from './upstream-record.masking';
import type { UpstreamRecord } from './upstream-record';

/** Shorter values are common words and digits ("1", "true"): replacing them would garble every message. */
export const SCRUB_MIN_CHARS = 4;
/** A secret's words of this length are scrubbed on their own, since an error may quote one part of it. */
const SCRUB_PART_MIN_CHARS = 8;
/** How deep an error's cause chain is rewritten, as errorChain() reads it. */
const CHAIN_DEPTH = 4;

/**
 * Rewrites text that may quote one of a record's secrets (an SDK or fetch
 * error naming a header value or the URL, a child's stderr line) so that
 * each known secret value reads MASK before it is stored, logged or relayed.
 */
export class UpstreamSecretScrubber {
  /** Longest first, so a secret that contains another is replaced whole. */
  private readonly replacements: ReadonlyArray<readonly [string, string]>;

  constructor(record: UpstreamRecord) {
    const secrets = [...new Set(secretValues(record).flatMap(variants))]
      .filter((value) => value.length >= SCRUB_MIN_CHARS && value !== MASK)
      .map((value) => [value, MASK] as const);
    // The whole URL first reads as its masked form, which keeps the query keys an operator needs.
    this.replacements = [...urlForms(record), ...secrets].sort((a, b) => b[0].length - a[0].length);
  }

  text(text: string): string {
    let out = text;
    for (const [secret, shown] of this.replacements) {
      if (out.includes(secret)) out = out.split(secret).join(shown);
    }
    return out;
  }

  /**
   * The same error with its messages (and stacks) along the cause chain
   * rewritten in place, so whoever reads it later (errorChain, a span, a
   * client's error) sees no secret; one that cannot be rewritten (frozen)
   * is replaced by a plain error carrying its scrubbed text.
   */
  error(error: unknown): unknown {
    try {
      let at: unknown = error;
      for (let depth = 0; depth < CHAIN_DEPTH && typeof at === 'object' && at !== null; depth++) {
        this.rewrite(at, 'message');
        this.rewrite(at, 'stack');
        at = 'cause' in at ? at.cause : undefined;
      }
      return error;
    } catch {
      return new Error(this.text(errorChain(error)));
    }
  }

  private rewrite(target: object, key: 'message' | 'stack'): void {
    const value: unknown = (target as Record<string, unknown>)[key];
    if (typeof value !== 'string') return;
    const scrubbed = this.text(value);
    if (scrubbed !== value) {
      Object.defineProperty(target, key, { value: scrubbed, writable: true, configurable: true });
    }
  }
}

/** Every value of the record that is a secret or may carry one. */
function secretValues(record: UpstreamRecord): string[] {
  const values: string[] = [];
  if (record.stdio) values.push(...Object.values(record.stdio.env));
  const http = record.http;
  if (http) {
    values.push(...Object.values(http.headers));
    if (http.auth_secret !== undefined) values.push(http.auth_secret);
    if (http.oauth) values.push(http.oauth.client_secret);
    values.push(...urlSecrets(http.url));
  }
  return values;
}

function urlSecrets(raw: string): string[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return [raw];
  }
  // A user name alone is often a common word; it is scrubbed only beside its password.
  const values = [url.password, url.hash.slice(1)];
  for (const [, value] of url.searchParams) values.push(value);
  if (url.password !== '') values.push(`${url.username}:${url.password}@`);
  else if (url.username !== '') values.push(`${url.username}@`);
  return values;
}

function urlForms(record: UpstreamRecord): Array<readonly [string, string]> {
  const raw = record.http?.url;
  if (raw === undefined || raw === '') return [];
  const shown = maskedUrl(raw);
  let href = raw;
  try {
    href = new URL(raw).href;
  } catch {
    // Unparsable: only the text as written can be quoted.
  }
  return [...new Set([raw, href])].map((form) => [form, shown] as const);
}

/** The value as written, decoded from a URL, trimmed (as Headers trims), and its long words. */
function variants(value: string): string[] {
  const out = [value, value.trim()];
  try {
    out.push(decodeURIComponent(value));
  } catch {
    // Not percent-encoded text: the value as written is enough.
  }
  out.push(encodeURIComponent(value));
  for (const part of value.split(/[\s\0]+/)) {
    if (part.length >= SCRUB_PART_MIN_CHARS) out.push(part);
  }
  return out;
}
