import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from './stdio-process';

interface LockEntry {
  dev?: boolean;
  [key: string]: unknown;
}

interface Manifest {
  name: string;
  version: string;
  license?: string;
  dependencies: Record<string, string>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
}

/** `npm pack` of the repository (its dist/ as jest's globalSetup built it) into `destination`. */
export function packGateway(destination: string): string {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [packed] = JSON.parse(out) as Array<{ filename: string }>;
  return join(destination, packed.filename);
}

/**
 * Installs a packed gateway into an empty folder without the registry. npm resolves the
 * tarball's dependencies from a lockfile made of the repository's own, whose tarballs `npm ci`
 * already put in npm's cache (the registry's package documents it needs otherwise are not);
 * better-sqlite3's install script takes the binding this checkout built, through
 * prebuild-install's local-prebuilds option, instead of downloading the same prebuilt file.
 */
export function installOffline(tarball: string, appDir: string): void {
  mkdirSync(appDir, { recursive: true });
  const spec = `file:${relative(appDir, tarball)}`;
  const manifest = readJson<Manifest>(join(REPO_ROOT, 'package.json'));
  const repoLock = readJson<{ packages: Record<string, LockEntry> }>(
    join(REPO_ROOT, 'package-lock.json'),
  );
  const packages: Record<string, unknown> = {
    '': { dependencies: { [manifest.name]: spec } },
    [`node_modules/${manifest.name}`]: {
      version: manifest.version,
      resolved: spec,
      license: manifest.license,
      dependencies: manifest.dependencies,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  };
  for (const [path, entry] of Object.entries(repoLock.packages)) {
    if (path.startsWith('node_modules/') && entry.dev !== true) packages[path] = entry;
  }
  writeJson(join(appDir, 'package.json'), {
    name: 'capability-app',
    version: '1.0.0',
    private: true,
    dependencies: { [manifest.name]: spec },
  });
  writeJson(join(appDir, 'package-lock.json'), {
    name: 'capability-app',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages,
  });

  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund'], {
    cwd: appDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      npm_config_better_sqlite3_local_prebuilds: localSqlitePrebuild(join(appDir, '..')),
      SCARF_ANALYTICS: 'false',
    },
  });
}

/** The prebuild archive prebuild-install looks for, made from the binding in node_modules. */
function localSqlitePrebuild(workDir: string): string {
  const module = join(REPO_ROOT, 'node_modules', 'better-sqlite3');
  const { version } = readJson<{ version: string }>(join(module, 'package.json'));
  const staging = join(workDir, 'prebuild', 'build', 'Release');
  mkdirSync(staging, { recursive: true });
  copyFileSync(
    join(module, 'build', 'Release', 'better_sqlite3.node'),
    join(staging, 'better_sqlite3.node'),
  );
  const dir = join(workDir, 'prebuilds');
  mkdirSync(dir, { recursive: true });
  const archive = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', join(dir, archive), '-C', join(workDir, 'prebuild'), 'build']);
  return dir;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}
