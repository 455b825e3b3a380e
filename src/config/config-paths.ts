import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Where a relative path left at its built-in default is resolved: bundled
 * content against the installation, state against the user's data directory
 * in stdio mode (an MCP client may start the gateway in any directory, often
 * `/`), anything else against the working directory.
 */
export type PathAnchor = 'installation' | 'state' | 'cwd';

export const SQLITE_MEMORY = ':memory:';

/** The package root: dist/config/ and src/config/ both sit two levels below it. */
export const INSTALLATION_ROOT = path.resolve(__dirname, '..', '..');

/** `$XDG_DATA_HOME/owlclaw`, else `~/.local/share/owlclaw` (a relative XDG_DATA_HOME is ignored, as the spec says). */
export function userDataDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_DATA_HOME;
  const base =
    xdg !== undefined && path.isAbsolute(xdg)
      ? xdg
      : path.join(env.HOME || os.homedir(), '.local', 'share');
  return path.join(base, 'owlclaw');
}

export interface PathContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  transport: string;
  /** Absolute path of the config file, when one was read. */
  file: string | undefined;
}

/**
 * The absolute form of one configured path. `fromFile`: the value was written
 * in the config file (relative to that file's directory); `fromDefault`: no
 * layer set it; otherwise it came from the environment or a flag (cwd).
 */
export function absoluteConfigPath(
  value: string,
  anchor: PathAnchor,
  origin: 'file' | 'default' | 'cwd',
  ctx: PathContext,
): string {
  // SQLite's name for a database that lives in memory, not a file; empty: derived by its user.
  if (value === SQLITE_MEMORY || value === '') return value;
  if (origin === 'file' && ctx.file !== undefined) {
    return path.resolve(path.dirname(ctx.file), value);
  }
  if (origin === 'default') {
    if (anchor === 'installation') return path.resolve(INSTALLATION_ROOT, value);
    if (anchor === 'state' && ctx.transport === 'stdio') {
      return path.join(userDataDir(ctx.env), path.basename(value));
    }
  }
  return path.resolve(ctx.cwd, value);
}
