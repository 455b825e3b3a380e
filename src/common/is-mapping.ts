/** A parsed YAML, TOML or JSON mapping: an object that is neither null nor an array. */
export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
