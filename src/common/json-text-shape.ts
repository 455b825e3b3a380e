/** Bounds on the shape of a JSON text, checked before it is parsed. */
export interface JsonTextLimits {
  /** Nesting of objects and arrays, the outermost as level 1. */
  maxDepth: number;
  /** Object members (keys) across the whole text. */
  maxKeys: number;
  /** Array elements across the whole text, those of an outermost array aside. */
  maxArrayElements: number;
  /** Elements of the outermost container when it is an array (a JSON-RPC batch's messages). */
  maxOuterArrayElements: number;
}

export type JsonTextLimit = keyof JsonTextLimits;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * The first limit a JSON text passes, read in one pass over its characters
 * and stopping there, so that JSON.parse never builds a value too deep or too
 * wide. Strings are skipped whole (their brackets and commas do not count).
 * Invalid JSON is not judged: JSON.parse reports it after this finds nothing.
 */
export function findJsonTextBreach(
  text: string,
  limits: JsonTextLimits,
): JsonTextLimit | undefined {
  // Which open containers are arrays, innermost last; never longer than maxDepth.
  const arrays: boolean[] = [];
  let keys = 0;
  let elements = 0;
  let outerElements = 0;
  const count = (): JsonTextLimit | undefined => {
    if (!arrays[arrays.length - 1]) return ++keys > limits.maxKeys ? 'maxKeys' : undefined;
    // An outermost array's elements are a batch's messages: counted on their own, as such.
    if (arrays.length === 1) {
      return ++outerElements > limits.maxOuterArrayElements ? 'maxOuterArrayElements' : undefined;
    }
    return ++elements > limits.maxArrayElements ? 'maxArrayElements' : undefined;
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let passed: JsonTextLimit | undefined;
    if (code === QUOTE) {
      i = stringEnd(text, i);
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (arrays.length === limits.maxDepth) return 'maxDepth';
      arrays.push(code === OPEN_ARRAY);
      // A container holds one member more than it has commas, unless it is empty.
      if (!closesNext(text, i + 1)) passed = count();
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      arrays.pop();
    } else if (code === COMMA && arrays.length > 0) {
      passed = count();
    }
    if (passed !== undefined) return passed;
  }
  return undefined;
}

/** Index of the quote closing the string opened at `start` (the text's end when unclosed). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const close = text.indexOf('"', i);
    if (close === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
    // An odd run of backslashes escapes the quote.
    if (backslashes % 2 === 0) return close;
    i = close + 1;
  }
}

/** True when the first character from `from` that is not JSON whitespace closes a container. */
function closesNext(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) continue;
    return code === CLOSE_OBJECT || code === CLOSE_ARRAY;
  }
  return false;
}
