/*
 * `${ENV:NAME}` and `${ENV:NAME:-default}` inside a registry value. Like the
 * shell's `:-`, the default applies when the variable is unset or empty; a
 * reference without a default needs the variable set (empty is allowed).
 * Substituted text is never scanned again, so a variable's value cannot
 * smuggle in another reference.
 */

export type ReferenceResolution =
  { ok: true; value: string } | { ok: false; missing: string[] } | { ok: false; malformed: true };

export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

const REFERENCE = /\$\{ENV:([^}]*)\}/g;
const INNER = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?$/;
const OPENING = '${ENV:';

export const REFERENCE_FORMS = '${ENV:NAME} or ${ENV:NAME:-default}';

export function resolveEnvReferences(text: string, env: NodeJS.ProcessEnv): ReferenceResolution {
  // An opening left once every closed reference is gone has no closing brace.
  if (text.replace(REFERENCE, '').includes(OPENING)) return { ok: false, malformed: true };
  const missing: string[] = [];
  let malformed = false;
  const value = text.replace(REFERENCE, (_whole, inner: string) => {
    const match = INNER.exec(inner);
    if (!match) {
      malformed = true;
      return '';
    }
    const [, name, fallback] = match;
    const set = env[name];
    if (fallback !== undefined) return set === undefined || set === '' ? fallback : set;
    if (set === undefined) {
      if (!missing.includes(name)) missing.push(name);
      return '';
    }
    return set;
  });
  if (malformed) return { ok: false, malformed: true };
  if (missing.length > 0) return { ok: false, missing };
  return { ok: true, value };
}
