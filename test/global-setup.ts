import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Spawned gateways run the built CLI, so the build must match the sources under test. */
export default function globalSetup(): void {
  const root = join(__dirname, '..');
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
