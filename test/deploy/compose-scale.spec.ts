import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadGatewayConfig } from '../../src/config/config.loader';
import { REPO_ROOT } from '../support/stdio-process';
import { gatewayReplicas, readComposeFile, secretsByPath } from './compose-file';

/**
 * docker-compose.scale.yml's replicas behave as one gateway: each loads its
 * environment with the gateway's own loader, as the container would.
 */

const compose = readComposeFile('docker-compose.scale.yml');
const replicas = gatewayReplicas(compose);

describe('docker-compose.scale.yml', () => {
  it('runs several gateway replicas', () => {
    expect(replicas.length).toBeGreaterThanOrEqual(2);
  });

  it('every replica signs requestState with the same declared compose secret', () => {
    const used = replicas.map(([name, service]) => {
      const ref = loadGatewayConfig({ cwd: REPO_ROOT, env: { ...service.environment } }).mrtr
        .state_secret_ref;
      expect({ name, ref }).toEqual({ name, ref: expect.stringMatching(/^file:\//) });
      const secret = secretsByPath(service).get(ref.slice('file:'.length));
      expect({ name, secret }).toEqual({ name, secret: expect.any(String) });
      return { ref, secret: secret! };
    });
    expect(new Set(used.map((u) => u.ref)).size).toBe(1);
    expect(new Set(used.map((u) => u.secret)).size).toBe(1);
    expect(compose.secrets?.[used[0].secret]?.file).toEqual(expect.any(String));
  });

  it('keeps every secret file out of git and out of the Docker build context', () => {
    const dockerIgnored = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const { file } of Object.values(compose.secrets ?? {})) {
      const fromRoot = relative(REPO_ROOT, join(REPO_ROOT, file!));
      // Exits 0 only when git ignores the path.
      execFileSync('git', ['check-ignore', '--quiet', '--no-index', fromRoot], { cwd: REPO_ROOT });
      expect(dockerIgnored).toContain(fromRoot);
    }
  });
});
