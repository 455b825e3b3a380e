import * as fs from 'node:fs';
import * as path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { absoluteConfigPath, PathAnchor, PathContext } from './config-paths';
import { LeafKind, schemaKeysAt, schemaLeaves } from './config-schema.decorators';
import { ConfigValidationError } from './config-validation.error';
import { DEFAULT_CONFIG } from './config.defaults';
import { GatewayConfigSchema, validateGatewayConfigShape } from './config.schema';
import { GatewayConfig } from './gateway-config';

/**
 * Partial view of a config for overrides: objects become optional key by key,
 * arrays are replaced whole (merging two origin lists element-wise means nothing).
 */
export type DeepPartial<T> = T extends readonly (infer U)[]
  ? U[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

export interface LoadGatewayConfigOptions {
  /** Explicit file (the CLI's --config). Must exist. Relative paths resolve against `cwd`. */
  configPath?: string;
  /** Environment to read MCP_SERVER_* from; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Highest-precedence values, normally CLI flags. `undefined` members mean "not given". */
  overrides?: DeepPartial<GatewayConfig>;
  /** Directory for the default config path and for relative paths set by env or flags; defaults to process.cwd(). */
  cwd?: string;
}

export interface LoadedGatewayConfig {
  config: GatewayConfig;
  /** Absolute path of the file that was read, or undefined when no file was used. */
  source: string | undefined;
  /**
   * Names (never values) of MCP_SERVER_* variables that map to no key; they are
   * ignored, but the start-up log should mention them because they are usually typos.
   */
  ignoredEnvVars: string[];
  /** Seed keys found in the file that this gateway accepts but does not use (see SEED_ONLY_KEYS). */
  ignoredKeys: string[];
}

/** Used when neither configPath nor MCP_SERVER_CONFIG is given, and only if it exists. */
export const DEFAULT_CONFIG_PATH = 'config/mcp-server.yaml';
export const CONFIG_PATH_ENV = 'MCP_SERVER_CONFIG';
export const ENV_PREFIX = 'MCP_SERVER_';
/** Claimed by this and later work; never treated as config keys, never reported as unknown. */
export const RESERVED_ENV_VARS: readonly string[] = [
  CONFIG_PATH_ENV,
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
 * Keys of the seed's sample file (§9.1) that nothing here implements: a file
 * written from the seed still loads, and the start-up log names what it ignores.
 */
export const SEED_ONLY_KEYS: readonly (readonly string[])[] = [
  ['tools', 'async_threshold_seconds'],
  ['tools', 'cache_ttl_seconds'],
  ['logging', 'output'],
];

const FILE_ROOT_KEY = 'mcp_server';
const CLI_ORIGIN = 'command-line options';
const DEFAULTS_ORIGIN = 'built-in defaults';
// Assigning these through a merge would rewrite prototypes, not data.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The path keys of the schema (@ConfigPath), made absolute after validation. */
const PATH_KEYS: ReadonlyArray<{ path: readonly string[]; anchor: PathAnchor }> = schemaLeaves(
  GatewayConfigSchema,
).flatMap((leaf) => (leaf.anchor ? [{ path: leaf.path, anchor: leaf.anchor }] : []));

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

interface Problem {
  /** What the problem is about: a dotted key (`mcp_server.http.port`) or a file. */
  subject: string;
  message: string;
  /** Where the offending value came from, when known. */
  origin?: string;
}

function render(problem: Problem): string {
  const from = problem.origin ? ` (from ${problem.origin})` : '';
  return `${problem.subject}: ${problem.message}${from}`;
}

function keyLabel(keyPath: readonly string[]): string {
  return [FILE_ROOT_KEY, ...keyPath].join('.');
}

/**
 * Loads, merges and validates the gateway configuration.
 * Precedence: DEFAULT_CONFIG < YAML file < MCP_SERVER_* env < overrides.
 * Throws ConfigValidationError listing every problem; never returns a partly valid config.
 */
export function loadGatewayConfig(options: LoadGatewayConfigOptions = {}): GatewayConfig {
  return loadGatewayConfigWithSource(options).config;
}

/** Like loadGatewayConfig, also telling which file was read (for the start-up log). */
export function loadGatewayConfigWithSource(
  options: LoadGatewayConfigOptions = {},
): LoadedGatewayConfig {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const problems: Problem[] = [];

  const file = resolveConfigFile(options.configPath, env, cwd, problems);
  const fileSection = file ? readConfigFile(file, problems) : undefined;
  const ignoredKeys = dropSeedOnlyKeys(fileSection);
  const envLayer = readEnv(env, problems);

  const merged = structuredClone(DEFAULT_CONFIG) as unknown as Record<string, unknown>;
  const origins = new Map<string, string>();
  if (fileSection !== undefined) {
    mergeLayer(merged, fileSection, [], () => file?.display ?? '', origins, problems);
  }
  mergeLayer(merged, envLayer.values, [], (at) => envLayer.origins.get(at), origins, problems);
  if (options.overrides !== undefined) {
    mergeLayer(merged, options.overrides, [], () => CLI_ORIGIN, origins, problems);
  }

  const originOf = (keyPath: readonly string[]): string | undefined => {
    // The nearest set ancestor tells where a whole replaced subtree came from.
    for (let n = keyPath.length; n > 0; n--) {
      const origin = origins.get(keyPath.slice(0, n).join('.'));
      if (origin) return origin;
    }
    return undefined;
  };

  const shape = validateGatewayConfigShape(merged);
  if (!shape.ok) {
    for (const p of shape.problems) {
      const hint = p.unknownKey ? suggestKey(p.path) : '';
      problems.push({
        subject: keyLabel(p.path),
        message: p.message + hint,
        origin: originOf(p.path) ?? DEFAULTS_ORIGIN,
      });
    }
  }
  if (shape.ok) {
    const from = (keyPath: readonly string[]): 'file' | 'default' | 'cwd' => {
      const origin = originOf(keyPath);
      if (origin === undefined) return 'default';
      return file !== undefined && origin === file.display ? 'file' : 'cwd';
    };
    resolvePaths(shape.config, from, {
      cwd,
      env,
      transport: shape.config.transport,
      file: file?.absolute,
    });
  }
  checkTlsFiles(shape.ok ? shape.config : merged, cwd, originOf, problems);

  if (problems.length > 0 || !shape.ok) {
    throw new ConfigValidationError(problems.map(render));
  }
  return {
    config: shape.config,
    source: file?.absolute,
    ignoredEnvVars: envLayer.ignored,
    ignoredKeys,
  };
}

/** Removes SEED_ONLY_KEYS from the file's section, in place, and names those it found. */
function dropSeedOnlyKeys(section: unknown): string[] {
  const found: string[] = [];
  for (const keyPath of SEED_ONLY_KEYS) {
    const parent = isMapping(section) ? section[keyPath[0]] : undefined;
    if (isMapping(parent) && Object.hasOwn(parent, keyPath[1])) {
      delete parent[keyPath[1]];
      found.push(keyLabel(keyPath));
    }
  }
  return found;
}

/** Makes every path key absolute, in place, by where its value came from (see config-paths.ts). */
function resolvePaths(
  config: GatewayConfig,
  from: (keyPath: readonly string[]) => 'file' | 'default' | 'cwd',
  ctx: PathContext,
): void {
  for (const key of PATH_KEYS) {
    let node: unknown = config;
    for (const segment of key.path.slice(0, -1)) node = isMapping(node) ? node[segment] : undefined;
    if (!isMapping(node)) continue;
    const leaf = key.path[key.path.length - 1];
    const value = node[leaf];
    const origin = from(key.path);
    if (typeof value === 'string') node[leaf] = absoluteConfigPath(value, key.anchor, origin, ctx);
    else if (Array.isArray(value)) {
      node[leaf] = value.map((entry: string) => absoluteConfigPath(entry, key.anchor, origin, ctx));
    }
  }
}

interface ConfigFile {
  /** As the user wrote it; used in messages because it is what they will look for. */
  display: string;
  absolute: string;
}

/**
 * Picks the file: explicit path, else $MCP_SERVER_CONFIG, else config/mcp-server.yaml
 * if present. The first two were asked for, so their absence is an error; the
 * third is a convention, so its absence just means "defaults".
 */
export function resolveConfigPath(
  options: Pick<LoadGatewayConfigOptions, 'configPath' | 'env' | 'cwd'> = {},
): string | undefined {
  const problems: Problem[] = [];
  const file = resolveConfigFile(
    options.configPath,
    options.env ?? process.env,
    options.cwd ?? process.cwd(),
    problems,
  );
  if (problems.length > 0) throw new ConfigValidationError(problems.map(render));
  return file?.absolute;
}

function resolveConfigFile(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
  problems: Problem[],
): ConfigFile | undefined {
  let given: string;
  let how: string;
  if (explicit !== undefined) {
    given = explicit;
    how = 'given config file';
  } else if (env[CONFIG_PATH_ENV] !== undefined) {
    given = env[CONFIG_PATH_ENV];
    how = `config file from env ${CONFIG_PATH_ENV}`;
  } else {
    const absolute = path.resolve(cwd, DEFAULT_CONFIG_PATH);
    if (!fs.existsSync(absolute)) return undefined;
    given = DEFAULT_CONFIG_PATH;
    how = 'config file';
  }
  if (given.trim() === '') {
    problems.push({ subject: how, message: 'path is empty' });
    return undefined;
  }
  const absolute = path.resolve(cwd, given);
  const stat = fs.statSync(absolute, { throwIfNoEntry: false });
  if (!stat) {
    problems.push({ subject: given, message: `${how} does not exist (looked for ${absolute})` });
    return undefined;
  }
  if (!stat.isFile()) {
    problems.push({ subject: given, message: `${how} is not a regular file (${absolute})` });
    return undefined;
  }
  return { display: given, absolute };
}

/** Returns the `mcp_server` mapping of the file, or undefined after recording why not. */
function readConfigFile(file: ConfigFile, problems: Problem[]): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file.absolute, 'utf8');
  } catch (error) {
    problems.push({
      subject: file.display,
      message: `cannot read config file: ${errorText(error)}`,
    });
    return undefined;
  }

  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      // Some yaml messages embed their own position and a source excerpt; keep the first clause.
      const message = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
      problems.push({
        subject: file.display,
        message: `YAML syntax error at line ${line}, column ${col}: ${message}`,
      });
    }
    return undefined;
  }

  const root: unknown = doc.toJS();
  if (!isMapping(root)) {
    problems.push({
      subject: file.display,
      message: `expected a top-level "${FILE_ROOT_KEY}:" mapping, found ${describe(root)}`,
    });
    return undefined;
  }
  for (const key of Object.keys(root)) {
    if (key === FILE_ROOT_KEY) continue;
    const belongsInside = DEFAULT_CONFIG_KEYS.has(key);
    problems.push({
      subject: key,
      message: belongsInside
        ? `top-level key not allowed; it belongs under "${FILE_ROOT_KEY}:"`
        : `top-level key not allowed; the file may only contain "${FILE_ROOT_KEY}:"`,
      origin: file.display,
    });
  }
  if (!Object.hasOwn(root, FILE_ROOT_KEY)) {
    problems.push({
      subject: file.display,
      message: `has no top-level "${FILE_ROOT_KEY}:" section`,
    });
    return undefined;
  }
  const section = root[FILE_ROOT_KEY];
  // "mcp_server:" with every key commented out parses as null and means "all defaults".
  if (section === null) return {};
  if (!isMapping(section)) {
    problems.push({
      subject: FILE_ROOT_KEY,
      message: `must be a mapping, found ${describe(section)}`,
      origin: file.display,
    });
    return undefined;
  }
  return section;
}

const DEFAULT_CONFIG_KEYS = new Set(schemaKeysAt(GatewayConfigSchema, []));

interface EnvLayer {
  values: Record<string, unknown>;
  /** Dotted key path -> "env NAME". */
  origins: Map<string, string>;
  ignored: string[];
}

function readEnv(env: NodeJS.ProcessEnv, problems: Problem[]): EnvLayer {
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

/**
 * Deep-merges `layer` into `target`, recording for each key it sets where the
 * value came from. Mappings merge key by key; anything else (scalars, arrays)
 * replaces. A non-mapping where a section belongs is reported here rather than
 * replacing the section, which would bury the mistake under one error per key.
 */
function mergeLayer(
  target: Record<string, unknown>,
  layer: unknown,
  at: string[],
  originFor: (dottedPath: string) => string | undefined,
  origins: Map<string, string>,
  problems: Problem[],
): void {
  if (!isMapping(layer)) return;
  for (const [key, value] of Object.entries(layer)) {
    if (value === undefined) continue;
    const here = [...at, key];
    const dotted = here.join('.');
    if (FORBIDDEN_KEYS.has(key)) {
      problems.push({
        subject: keyLabel(here),
        message: 'is not a known configuration key',
        origin: originFor(dotted),
      });
      continue;
    }
    const current = Object.hasOwn(target, key) ? target[key] : undefined;
    if (isMapping(current)) {
      // A section whose keys are all commented out parses as null: it sets nothing.
      if (value === null) continue;
      if (isMapping(value)) {
        mergeLayer(current, value, here, originFor, origins, problems);
      } else {
        problems.push({
          subject: keyLabel(here),
          message: `must be a mapping of its sub-keys, found ${describe(value)}`,
          origin: originFor(dotted),
        });
      }
      continue;
    }
    target[key] = structuredClone(value);
    for (const known of [...origins.keys()]) {
      if (known.startsWith(`${dotted}.`)) origins.delete(known);
    }
    const origin = originFor(dotted);
    if (origin) origins.set(dotted, origin);
  }
}

/**
 * TLS files are checked here, not in the schema, because "exists and is
 * readable" depends on the filesystem. Valid paths are absolute by now; cwd
 * only places those of a config that failed the schema anyway.
 */
function checkTlsFiles(
  merged: object,
  cwd: string,
  originOf: (keyPath: readonly string[]) => string | undefined,
  problems: Problem[],
): void {
  const http = (merged as Record<string, unknown>).http;
  const tls = isMapping(http) ? http.tls : undefined;
  if (!isMapping(tls) || tls.enabled !== true) return;
  for (const key of ['cert_file', 'key_file']) {
    const keyPath = ['http', 'tls', key];
    const value = tls[key];
    if (value === undefined) {
      problems.push({
        subject: keyLabel(keyPath),
        message: `is required when ${keyLabel(['http', 'tls', 'enabled'])} is true`,
        origin: originOf(['http', 'tls', 'enabled']),
      });
      continue;
    }
    if (typeof value !== 'string' || value.trim() === '') continue; // the schema reports these
    const problem = unreadableFileReason(path.resolve(cwd, value));
    if (problem) {
      problems.push({ subject: keyLabel(keyPath), message: problem, origin: originOf(keyPath) });
    }
  }
}

function unreadableFileReason(absolute: string): string | undefined {
  const stat = fs.statSync(absolute, { throwIfNoEntry: false });
  if (!stat) return `file ${absolute} does not exist`;
  if (!stat.isFile()) return `${absolute} is not a regular file`;
  try {
    fs.accessSync(absolute, fs.constants.R_OK);
  } catch {
    return `file ${absolute} is not readable`;
  }
  return undefined;
}

/** " (did you mean port?)" for a typo close to a sibling key, else "". */
function suggestKey(keyPath: readonly string[]): string {
  const typed = keyPath[keyPath.length - 1];
  const siblings = schemaKeysAt(GatewayConfigSchema, keyPath.slice(0, -1));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of siblings) {
    const distance = editDistance(typed.toLowerCase(), candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const tolerance = Math.max(1, Math.floor(typed.length / 3));
  return best !== undefined && bestDistance <= tolerance ? ` (did you mean "${best}"?)` : '';
}

/** Edit distance counting a swap of neighbours as one edit ("prot" is one typo from "port"). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j], rows[i - 2][j - 2] + 1);
      }
    }
    rows.push(row);
  }
  return rows[a.length][b.length];
}

function setPath(
  target: Record<string, unknown>,
  keyPath: readonly string[],
  value: unknown,
): void {
  let node = target;
  for (const segment of keyPath.slice(0, -1)) {
    const next = node[segment];
    if (isMapping(next)) {
      node = next;
    } else {
      const created: Record<string, unknown> = {};
      node[segment] = created;
      node = created;
    }
  }
  node[keyPath[keyPath.length - 1]] = value;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value} (${JSON.stringify(value)})`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
