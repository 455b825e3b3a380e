import { isToolNameSeparator } from '../config/tool-name-separator.validator';
import { shortenToolName } from './tool-name.shortener';
import { TOOL_NAMING_LIMITS } from './tool-naming.limits';
import { ToolNamingOptions } from './tool-naming.options';

/*
 * Names with characters outside the client-safe set are refused, not rewritten:
 * a rewrite could turn two upstream tools (`a.b`, `a_b`) into one name.
 */
const NAME_CHARACTER = /[a-zA-Z0-9_-]/;
const NAME_CHARACTER_WITH_DOTS = /[a-zA-Z0-9_.-]/;
const QUOTED_NAME_MAX = 80;

export type ExposedToolName =
  { ok: true; name: string; shortened: boolean } | { ok: false; reason: string };

/**
 * The name clients see for an upstream tool: `<namespace><separator><tool>`,
 * shortened to 64 characters when longer. Throws on a separator the config
 * would have refused.
 */
export function exposedToolName(
  namespace: string,
  upstreamTool: string,
  options: ToolNamingOptions,
): ExposedToolName {
  if (!isToolNameSeparator(options.separator, options.allowDots)) {
    throw new Error(`invalid tool name separator ${JSON.stringify(options.separator)}`);
  }
  const problem =
    nameProblem('namespace', namespace, options.allowDots) ??
    nameProblem('tool name', upstreamTool, options.allowDots);
  if (problem) return { ok: false, reason: problem };
  return { ok: true, ...shortenToolName(`${namespace}${options.separator}${upstreamTool}`) };
}

function nameProblem(what: string, name: string, allowDots: boolean): string | undefined {
  if (name.length === 0) return `${what} is empty`;
  const max = TOOL_NAMING_LIMITS.maxUpstreamToolNameLength;
  if (name.length > max) {
    return `${what} ${quoted(name)} is longer than ${max} characters`;
  }
  const allowed = allowDots ? NAME_CHARACTER_WITH_DOTS : NAME_CHARACTER;
  const refused = [...new Set([...name].filter((character) => !allowed.test(character)))];
  if (refused.length === 0) return undefined;
  const permitted = allowDots
    ? 'letters, digits, "_", "-" and "."'
    : 'letters, digits, "_" and "-"';
  return (
    `${what} ${quoted(name)} contains ${refused.map((c) => JSON.stringify(c)).join(', ')}; ` +
    `clients accept only ${permitted}, and names are not rewritten so that two tools never share one`
  );
}

/** JSON-quoted (control characters escaped), cut so that a hostile name cannot flood a log line. */
function quoted(name: string): string {
  return JSON.stringify(
    name.length > QUOTED_NAME_MAX ? `${name.slice(0, QUOTED_NAME_MAX)}…` : name,
  );
}
