'use strict';
/**
 * Loads TypeScript in spawned test children: `node -r <this file> entry.ts`
 * (TYPESCRIPT_LOADER in test/support/typescript-loader.ts). Each .ts file is
 * compiled by @swc/core as Jest compiles the specs, with tsconfig.json's
 * decorator, class-field and target settings; JavaScript loads as Node loads
 * it. A small require hook, because @swc-node/register loads the TypeScript
 * compiler itself (in every worker thread too) just to read tsconfig.json.
 * Compiled files are kept in os.tmpdir(), keyed by their source, so that the
 * hundreds of files a gateway child loads compile once per change, not per spawn.
 */
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { transformSync, version } = require('@swc/core');

const SWC_OPTIONS = {
  swcrc: false,
  configFile: false,
  sourceMaps: 'inline',
  module: { type: 'commonjs' },
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
};
const CACHE_DIR = join(tmpdir(), `owlclaw-ts-cache-${process.getuid?.() ?? 'user'}`);
const CACHE_SALT = `${version}\0${JSON.stringify(SWC_OPTIONS)}`;

function compile(source, filename) {
  const key = createHash('sha256').update(`${CACHE_SALT}\0${filename}\0${source}`).digest('hex');
  const cached = join(CACHE_DIR, `${key}.js`);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    // Not compiled yet.
  }
  const { code } = transformSync(source, { ...SWC_OPTIONS, filename });
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written aside, then renamed: children compiling the same file at once never read half of it.
    const partial = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(partial, code);
    renameSync(partial, cached);
  } catch {
    // A cache that cannot be written only costs the next spawn a compile.
  }
  return code;
}

Module._extensions['.ts'] = function compileTypeScript(module, filename) {
  module._compile(compile(readFileSync(filename, 'utf8'), filename), filename);
};

// Stack traces name the .ts lines, from the inline maps.
process.setSourceMapsEnabled(true);
