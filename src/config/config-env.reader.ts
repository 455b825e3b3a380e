import { LeafKind, schemaLeaves } from './config-schema.decorators';
import { GatewayConfigSchema } from './config.schema';
import { keyLabel, Problem } from './config-problem';

/*
 * The MCP_SERVER_* layer of the configuration: which variable sets which key,
 * and how its text becomes the key's value.
 */

export const CONFIG_PATH_ENV = 'MCP_SERVER_CONFIG';
export const ENV_PREFIX = 'MCP_SERVER_';
/** Claimed by this and later work; never treated as config keys, never reported as unknown. */
export const RESERVED_ENV_VARS: readonly string[] = [
  CONFIG_PATH_ENV,
  'MCP_SERVER_ADMIN_TOKEN',
  'MCP_SERVER_METRICS_TOKEN',
];
/** The reserved variables that hold a static bearer secret (checked by config-secrets.check). */
export const BEARER_SECRET_ENV_VARS: readonly string[] = [
  'MCP_SERVER_ADMIN_TOKEN',
  'MCP_SERVER_METRICS_TOKEN',
];

export interface EnvBinding {
  /** Key path below mcp_server. */
  path: readonly string[];
  kind: LeafKind;
}

/** The seed's §9.2 short names, for keys whose systematic name is longer. */
export const ENV_ALIASES: Readonly<Record<string, readonly string[]>> = {
  MCP_SERVER_TOOLS_TIMEOUT: ['tools', 'default_timeout_seconds'],
  MCP_SERVER_SKILLS_DIR: ['resources', 'skills_dir'],
};

/**
 * Every systematic MCP_SERVER_<PATH> variable, keyed by name. Built by walking
 * the schema's keys rather than splitting names, because keys contain underscores
 * (MCP_SERVER_HTTP_BODY_LIMIT_BYTES could not be split unambiguously).
 */
export const ENV_BINDINGS: ReadonlyMap<string, EnvBinding> = buildEnvBindings();

function buildEnvBindings(): Map<string, EnvBinding> {
  const bindings = new Map<string, EnvBinding>();
  for (const { path: keyPath, kind } of schemaLeaves(GatewayConfigSchema)) {
    const leaf: EnvBinding = { path: keyPath, kind };
    const name = envVariableFor(leaf.path);
    if (bindings.has(name) || name in ENV_ALIASES || RESERVED_ENV_VARS.includes(name)) {
      // A programming error in the schema, not a user error: fail at import time.
      throw new Error(`environment variable ${name} would map to more than one config key`);
    }
    bindings.set(name, leaf);
  }
  return bindings;
}

/** The systematic env variable name of a key path (below mcp_server). */
export function envVariableFor(keyPath: readonly string[]): string {
  return ENV_PREFIX + keyPath.join('_').toUpperCase();
}

export interface EnvLayer {
  values: Record<string, unknown>;
  /** Dotted key path -> "env NAME". */
  origins: Map<string, string>;
  ignored: string[];
}

export function readEnv(env: NodeJS.ProcessEnv, problems: Problem[]): EnvLayer {
  const layer: EnvLayer = { values: {}, origins: new Map(), ignored: [] };
  const chosen = new Map<string, { name: string; raw: string; binding: EnvBinding }>();

  const consider = (name: string, binding: EnvBinding): void => {
    const raw = env[name];
    if (raw === undefined) return;
    const dotted = binding.path.join('.');
    const earlier = chosen.get(dotted);
    if (earlier && earlier.raw !== raw) {
      problems.push({
        subject: keyLabel(binding.path),
        message: `set by both ${earlier.name} and ${name} with different values; set only one`,
      });
      return;
    }
    // On equal values the systematic name (considered first) is the one reported.
    if (!earlier) chosen.set(dotted, { name, raw, binding });
  };
  for (const [name, binding] of ENV_BINDINGS) consider(name, binding);
  for (const [name, keyPath] of Object.entries(ENV_ALIASES)) {
    const target = ENV_BINDINGS.get(envVariableFor(keyPath));
    if (target) consider(name, target);
  }

  for (const { name, raw, binding } of chosen.values()) {
    const converted = convertEnvValue(raw, binding.kind);
    if (!converted.ok) {
      problems.push({
        subject: keyLabel(binding.path),
        message: `${converted.message}, got ${JSON.stringify(raw)}`,
        origin: `env ${name}`,
      });
      continue;
    }
    setPath(layer.values, binding.path, converted.value);
    layer.origins.set(binding.path.join('.'), `env ${name}`);
  }

  for (const name of Object.keys(env)) {
    if (!name.startsWith(ENV_PREFIX) || env[name] === undefined) continue;
    if (ENV_BINDINGS.has(name) || name in ENV_ALIASES || RESERVED_ENV_VARS.includes(name)) continue;
    layer.ignored.push(name);
  }
  layer.ignored.sort();
  return layer;
}

type Conversion = { ok: true; value: unknown } | { ok: false; message: string };

const NUMBER_PATTERN = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const TRUE_WORDS = new Set(['true', '1', 'yes']);
const FALSE_WORDS = new Set(['false', '0', 'no']);

/** Env values are text; the key's kind in the schema says how to read them. */
function convertEnvValue(raw: string, kind: LeafKind): Conversion {
  const text = raw.trim();
  switch (kind) {
    case 'string':
      return { ok: true, value: text };
    case 'number':
      // Number('') is 0 and Number('0x10') is 16; only plain decimal notation is accepted.
      return NUMBER_PATTERN.test(text)
        ? { ok: true, value: Number(text) }
        : { ok: false, message: 'must be a number' };
    case 'boolean': {
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) return { ok: true, value: true };
      if (FALSE_WORDS.has(word)) return { ok: true, value: false };
      return { ok: false, message: 'must be a boolean (true/false, 1/0, yes/no)' };
    }
    case 'string[]':
      return {
        ok: true,
        value: text
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== ''),
      };
  }
}

function setPath(
  target: Record<string, unknown>,
  keyPath: readonly string[],
  value: unknown,
): void {
  let node = target;
  for (const segment of keyPath.slice(0, -1)) {
    const next = node[segment];
    if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
      node = next as Record<string, unknown>;
    } else {
      const created: Record<string, unknown> = {};
      node[segment] = created;
      node = created;
    }
  }
  node[keyPath[keyPath.length - 1]] = value;
}
