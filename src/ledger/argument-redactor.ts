export const REDACTED = '[REDACTED]';

/** Decisions remembered per (parent, key): argument keys repeat from call to call. */
const DECISION_CACHE_MAX = 4096;
/** Longer keys are rare and not worth remembering. */
const CACHEABLE_KEY_LENGTH = 128;

/** A key and its separator in free text: `key=`, `key: `, `"key": `. */
const KEY_IN_TEXT = /(["']?)([A-Za-z_][\w.-]{0,127})\1\s*[:=]\s*/g;
/** The value after it: a quoted string to its closing quote, else up to a separator. */
const VALUE_IN_TEXT = /"(?:[^"\\]|\\.)*"|'[^'\\]*'|[^\s,;&"'<>)\]}]+/y;

/**
 * Replaces the values of sensitive keys, at any depth (objects inside
 * arrays included), before arguments reach the ledger. Each pattern is a
 * case-insensitive regular expression tested against the key as written,
 * against its words (`x-api-key` and `xApiKey` both read `x_api_key`), and
 * against the path `parent.key` in words (arrays are transparent), so
 * `(^|_)pass(_|$)` takes `db_pass` but not `passenger`, and `credentials\.pass`
 * names a key under its parent. A matching key's whole value is replaced.
 */
export class ArgumentRedactor {
  private readonly pattern?: Pick<RegExp, 'test'>;
  /** Per parent (in words), per key: its words, or undefined when it is sensitive. */
  private readonly decisions = new Map<string, Map<string, string | undefined>>();
  private remembered = 0;

  constructor(redactKeys: readonly string[]) {
    const each = redactKeys.map((source) => {
      try {
        return new RegExp(source, 'i');
      } catch (err) {
        throw new Error(
          `ledger.redact_keys: "${source}" is not a valid regular expression (${(err as Error).message})`,
        );
      }
    });
    // One alternation tests every pattern in one pass; backreferences would be renumbered by it.
    if (redactKeys.some((source) => /\\[1-9]|\\k</.test(source))) {
      this.pattern = { test: (text: string) => each.some((p) => p.test(text)) };
    } else if (redactKeys.length > 0) {
      this.pattern = new RegExp(redactKeys.map((source) => `(?:${source})`).join('|'), 'i');
    }
  }

  redact(value: unknown): unknown {
    return this.pattern ? this.redactUnder('', value) : value;
  }

  /**
   * The same decision for text (an error message): the value of every
   * `key=value`, `key: value` or `"key": "value"` pair whose key is sensitive
   * is replaced, its quotes kept.
   */
  redactText(text: string): string {
    if (!this.pattern) return text;
    let out = '';
    let copied = 0;
    KEY_IN_TEXT.lastIndex = 0;
    for (let pair = KEY_IN_TEXT.exec(text); pair; pair = KEY_IN_TEXT.exec(text)) {
      const valueAt = pair.index + pair[0].length;
      // A kept key's value is read on as text: it may itself be `key=value`.
      if (this.wordsIfKept('', pair[2]) !== undefined) continue;
      VALUE_IN_TEXT.lastIndex = valueAt;
      const value = VALUE_IN_TEXT.exec(text)?.[0];
      if (value === undefined) continue;
      const quote = value.startsWith('"') || value.startsWith("'") ? value[0] : '';
      out += `${text.slice(copied, valueAt)}${quote}${REDACTED}${quote}`;
      copied = valueAt + value.length;
      KEY_IN_TEXT.lastIndex = copied;
    }
    return copied === 0 ? text : out + text.slice(copied);
  }

  private redactUnder(parentWords: string, value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.redactUnder(parentWords, item));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const words = this.wordsIfKept(parentWords, key);
      const kept = words === undefined ? REDACTED : this.redactUnder(words, inner);
      // Assigning to __proto__ would replace the copy's prototype instead of keeping the key.
      if (key === '__proto__') {
        Object.defineProperty(out, key, { value: kept, enumerable: true, writable: true });
      } else out[key] = kept;
    }
    return out;
  }

  /** The key's words when its value is kept; undefined when it is redacted. */
  private wordsIfKept(parentWords: string, key: string): string | undefined {
    let byKey = this.decisions.get(parentWords);
    if (byKey?.has(key)) return byKey.get(key);
    const words = keyWords(key);
    const pattern = this.pattern!;
    const sensitive =
      pattern.test(words) ||
      (key !== words && pattern.test(key)) ||
      (parentWords !== '' && pattern.test(`${parentWords}.${words}`));
    const decision = sensitive ? undefined : words;
    if (key.length <= CACHEABLE_KEY_LENGTH && parentWords.length <= CACHEABLE_KEY_LENGTH) {
      if (this.remembered >= DECISION_CACHE_MAX) {
        this.decisions.clear();
        this.remembered = 0;
        byKey = undefined;
      }
      if (!byKey) {
        byKey = new Map();
        this.decisions.set(parentWords, byKey);
      }
      byKey.set(key, decision);
      this.remembered++;
    }
    return decision;
  }
}

/**
 * A key's words, lower case, joined by `_`: split at every character that is
 * not an ASCII letter or digit and where case changes (`APIKey` -> `api_key`,
 * `sessionCount` -> `session_count`). One pass, no backtracking.
 */
export function keyWords(key: string): string {
  let out = '';
  let previous: 'none' | 'lower' | 'upper' = 'none';
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    const upper = c >= 65 && c <= 90;
    const lower = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    if (!upper && !lower) {
      if (previous !== 'none') out += '_';
      previous = 'none';
      continue;
    }
    if (upper) {
      const next = key.charCodeAt(i + 1);
      const nextLower = next >= 97 && next <= 122;
      if (previous === 'lower' || (previous === 'upper' && nextLower)) out += '_';
      out += String.fromCharCode(c + 32);
      previous = 'upper';
    } else {
      out += key[i];
      previous = 'lower';
    }
  }
  return out.endsWith('_') ? out.slice(0, -1) : out;
}
