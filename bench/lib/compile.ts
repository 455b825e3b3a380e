import { transformFile } from '@swc/core';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { REPO_ROOT } from './paths';

/** The bench directories whose files run inside child processes (compiled to plain JavaScript). */
const CHILD_DIRS = ['fixtures', 'baselines', 'shared'];

/**
 * Compiles the code that runs in child processes to plain CommonJS in a
 * temporary tree, so every server runs on plain `node` (no compiler loaded
 * in its process, no compiler memory in its RSS):
 *
 *   <root>/bench/{fixtures,baselines,shared}/*.js
 *   <root>/node_modules -> <repo>/node_modules
 *   <root>/src          -> <repo>/dist   (so `../../src/...` imports load the gateway's own build)
 *
 * Node resolves symlinks to real paths, so a fixture's `../../src/tools/tool.registry`
 * is the very module instance the gateway (dist/cli/main.js) uses.
 */
export class CompiledBench {
  private constructor(readonly root: string) {}

  static async build(): Promise<CompiledBench> {
    const root = mkdtempSync(join(tmpdir(), 'owlclaw-bench-'));
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
    symlinkSync(join(REPO_ROOT, 'dist'), join(root, 'src'), 'dir');
    for (const dir of CHILD_DIRS) {
      for (const file of tsFiles(join(REPO_ROOT, 'bench', dir))) {
        const out = join(root, relative(REPO_ROOT, file)).replace(/\.ts$/, '.js');
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, await compileOne(file));
      }
    }
    return new CompiledBench(root);
  }

  /** Path of the compiled form of `bench/<rel>.ts`. */
  js(rel: string): string {
    return join(this.root, 'bench', rel.replace(/\.ts$/, '.js'));
  }

  /** A scratch directory inside the run's temporary tree. */
  scratch(name: string): string {
    const dir = join(this.root, 'scratch', name);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

async function compileOne(file: string): Promise<string> {
  const { code } = await transformFile(file, {
    swcrc: false,
    module: { type: 'commonjs' },
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      // Same semantics as tsc with experimentalDecorators + emitDecoratorMetadata (Nest DI, DTO types).
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    },
  });
  return code;
}
