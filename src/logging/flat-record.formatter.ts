/** Strings up to this length have their JSON form remembered (names, ids, fixed messages). */
const REMEMBERED_STRING_MAX_LENGTH = 64;
/** Most JSON forms remembered; the memory starts over when full (a client id per caller is the most). */
const REMEMBERED_STRINGS_MAX = 4096;

/**
 * The fields of a log record as pino writes them (`,"key":value` for each
 * own field, in order), built here for flat records: values that are
 * strings, numbers, booleans, null, or plain objects of those. Returns
 * undefined for anything else (an Error, an array, a deeper object), which
 * pino then serializes as usual.
 *
 * A governance decision is logged for every call, and pino's general path
 * (a serializer lookup per key, safe-stable-stringify's fallback machinery)
 * cost about 20k instructions per decision line, as much as a third of
 * governance's whole cost per call. The text is the same as pino's (its
 * `asJson` on Node 25 and later; earlier versions leave a lone UTF-16
 * surrogate unescaped, this escapes it as JSON.stringify does).
 */
export class FlatRecordFormatter {
  private readonly remembered = new Map<string, string>();

  /** `,"key":value` for every field of `record`, or undefined when it is not flat. */
  fields(record: Record<string, unknown>): string | undefined {
    // pino turns these into something else: an `err` through its error serializer, a record
    // that looks like an HTTP request or response into a summary of it.
    if ('err' in record || (record.method && record.headers && record.socket)) return undefined;
    let text = '';
    for (const key in record) {
      if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
      const value = json(record[key], this, true);
      if (value === NOT_FLAT) return undefined;
      if (value !== undefined) text += `,${this.quoted(key)}:${value}`;
    }
    return text;
  }

  /** The JSON form of a string, remembered when it is short. */
  quoted(text: string): string {
    if (text.length > REMEMBERED_STRING_MAX_LENGTH) return JSON.stringify(text);
    let quoted = this.remembered.get(text);
    if (quoted === undefined) {
      quoted = JSON.stringify(text);
      if (this.remembered.size >= REMEMBERED_STRINGS_MAX) this.remembered.clear();
      this.remembered.set(text, quoted);
    }
    return quoted;
  }
}

/** Marks a value this formatter leaves to pino. */
const NOT_FLAT = Symbol('not flat');

/**
 * A value as pino writes it (undefined: the field is left out), or NOT_FLAT.
 * Plain objects are taken one level deep (`remaining: { calls_day: 5 }`).
 */
function json(
  value: unknown,
  formatter: FlatRecordFormatter,
  objectsAllowed: boolean,
): string | undefined | typeof NOT_FLAT {
  switch (typeof value) {
    case 'string':
      return formatter.quoted(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return undefined;
    case 'object':
      if (value === null) return 'null';
      return objectsAllowed && isPlain(value) ? nested(value, formatter) : NOT_FLAT;
    case 'function':
      // Left out by both, but pino reads a record with a setHeader function as a response.
      return objectsAllowed ? NOT_FLAT : undefined;
    default:
      // bigint (pino's JSON.stringify throws and it falls back), symbol: pino's own way.
      return NOT_FLAT;
  }
}

/** An object literal or a dictionary without prototype; not an instance of any class. */
function isPlain(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A plain object as JSON.stringify writes it, when its values are flat. */
function nested(value: object, formatter: FlatRecordFormatter): string | typeof NOT_FLAT {
  // JSON.stringify would write what its toJSON returns.
  if ('toJSON' in value) return NOT_FLAT;
  let text = '';
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const field = json((value as Record<string, unknown>)[key], formatter, false);
    if (field === NOT_FLAT) return NOT_FLAT;
    if (field !== undefined) text += `${text === '' ? '' : ','}${formatter.quoted(key)}:${field}`;
  }
  return `{${text}}`;
}
