import * as fs from 'node:fs';
import * as path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { isMapping } from '../common/is-mapping';
import { absoluteConfigPath, PathAnchor, PathContext } from './config-paths';
import { schemaKeysAt, schemaLeaves } from './config-schema.decorators';
import { ConfigValidationError } from './config-validation.error';
import { DEFAULT_CONFIG } from './config.defaults';
import { GatewayConfigSchema, validateGatewayConfigShape } from './config.schema';
import { CONFIG_PATH_ENV, readEnv } from './config-env.reader';
import { OTEL_SDK_DISABLED, readOtelEnv } from './config-otel-env.reader';
import { suggestKey } from './config-key.suggestion';
import { drainConfigProblems } from './config-drain.check';
import { DRAIN_DELAY_KEY, effectiveDrainDelaySeconds } from './config-drain.default';
import { httpTimeoutsConfigProblems } from './config-http-timeouts.check';
import { tracingConfigProblems } from './config-tracing.check';
import { oauthConfigProblems } from './config-oauth.check';
import { secretConfigProblems } from './config-secrets.check';
import { alertsConfigProblems } from './config-alerts.check';
import { removedKeyProblems } from './config-removed-keys.check';
import { FILE_ROOT_KEY, keyLabel, Problem, render } from './config-problem';
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
}

/** Used when neither configPath nor MCP_SERVER_CONFIG is given, and only if it exists. */
export const DEFAULT_CONFIG_PATH = 'config/mcp-server.yaml';

const CLI_ORIGIN = 'command-line options';
const DEFAULTS_ORIGIN = 'built-in defaults';
// Assigning these through a merge would rewrite prototypes, not data.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The path keys of the schema (@ConfigPath), made absolute after validation. */
const PATH_KEYS: ReadonlyArray<{ path: readonly string[]; anchor: PathAnchor }> = schemaLeaves(
  GatewayConfigSchema,
).flatMap((leaf) => (leaf.anchor ? [{ path: leaf.path, anchor: leaf.anchor }] : []));

/**
 * Loads, merges and validates the gateway configuration.
 * Precedence: DEFAULT_CONFIG < YAML file < OTEL_* env < MCP_SERVER_* env < overrides,
 * then OTEL_SDK_DISABLED=true switches tracing off whatever the layers say.
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
  problems.push(...removedKeyProblems(fileSection, file?.display));
  const otelLayer = readOtelEnv(env, problems);
  const envLayer = readEnv(env, problems);

  const merged = structuredClone(DEFAULT_CONFIG) as unknown as Record<string, unknown>;
  const origins = new Map<string, string>();
  if (fileSection !== undefined) {
    mergeLayer(merged, fileSection, [], () => file?.display ?? '', origins, problems);
  }
  mergeLayer(merged, otelLayer.values, [], (at) => otelLayer.origins.get(at), origins, problems);
  mergeLayer(merged, envLayer.values, [], (at) => envLayer.origins.get(at), origins, problems);
  if (options.overrides !== undefined) {
    mergeLayer(merged, options.overrides, [], () => CLI_ORIGIN, origins, problems);
  }
  if (otelLayer.disabled) {
    mergeLayer(
      merged,
      { tracing: { enabled: false } },
      [],
      () => `env ${OTEL_SDK_DISABLED}`,
      origins,
      problems,
    );
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
    const { http } = shape.config;
    http.drain_delay_seconds = effectiveDrainDelaySeconds(
      http,
      originOf(DRAIN_DELAY_KEY) !== undefined,
    );
  }
  checkTlsFiles(shape.ok ? shape.config : merged, cwd, originOf, problems);
  if (shape.ok) problems.push(...oauthConfigProblems(shape.config.auth, originOf));
  if (shape.ok) problems.push(...drainConfigProblems(shape.config, originOf));
  if (shape.ok) problems.push(...httpTimeoutsConfigProblems(shape.config, originOf));
  if (shape.ok) problems.push(...alertsConfigProblems(shape.config.alerts, env, originOf));
  if (shape.ok) problems.push(...tracingConfigProblems(shape.config.tracing, originOf));
  problems.push(...secretConfigProblems(env));

  if (problems.length > 0 || !shape.ok) {
    throw new ConfigValidationError(problems.map(render));
  }
  return {
    config: shape.config,
    source: file?.absolute,
    ignoredEnvVars: envLayer.ignored,
  };
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

function describe(value: unknown): string {
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value} (${JSON.stringify(value)})`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
