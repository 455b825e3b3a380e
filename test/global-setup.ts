import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Spawned gateways run the built CLI, so the build must match the sources under test. An
 * incremental build: after `npm run typecheck` (which builds dist/ on its way) it only confirms
 * that nothing changed, so CI compiles the sources once.
 */
export default function globalSetup(): void {
  const root = join(__dirname, '..');
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
