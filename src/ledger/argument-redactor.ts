export const REDACTED = '[REDACTED]';

/**
 * Replaces the values of sensitive keys, at any depth (objects inside
 * arrays included), before arguments reach the ledger. Patterns are
 * case-insensitive regular expressions matched anywhere in the key, so
 * `token` also covers `access_token`.
 */
export class ArgumentRedactor {
  private readonly patterns: RegExp[];

  constructor(redactKeys: readonly string[]) {
    this.patterns = redactKeys.map((source) => {
      try {
        return new RegExp(source, 'i');
      } catch (err) {
        throw new Error(
          `ledger.redact_keys: "${source}" is not a valid regular expression (${(err as Error).message})`,
        );
      }
    });
  }

  redact(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.redact(item));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = this.isSensitive(key) ? REDACTED : this.redact(inner);
    }
    return out;
  }

  private isSensitive(key: string): boolean {
    return this.patterns.some((pattern) => pattern.test(key));
  }
}
