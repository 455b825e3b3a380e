import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { scanRegistry } from './registry.scanner';
import { SecretFilePolicy, secretFilePolicy } from './secret-file.reader';
import { httpYaml, RegistryDirFixture } from './testing/registry-dir.fixture';

let fixture: RegistryDirFixture;
let outside: RegistryDirFixture;

beforeEach(() => {
  fixture = new RegistryDirFixture();
  outside = new RegistryDirFixture();
});

afterEach(() => {
  fixture.remove();
  outside.remove();
});

/** The problems of a registry whose one server names `ref` as its auth_ref. */
function problemsOf(ref: string, policy?: SecretFilePolicy): string[] {
  fixture.write('server.yaml', httpYaml('gh', `  auth_ref: "${ref}"`));
  const registry = scanRegistry(fixture.dir, {}, { strict: true, secretFiles: policy });
  return registry.rejected.flatMap((file) => file.problems);
}

const describeOnLinux = process.platform === 'linux' ? describe : describe.skip;

describe('auth_ref: file: secrets', () => {
  it('reads by default beside the registry directory and refuses a file elsewhere, naming the key', () => {
    fixture.writeOutside('ok.token', 'beside-secret');
    expect(problemsOf('file:../ok.token')).toEqual([]);
    const far = outside.writeOutside('far.token', 'far-secret');
    const problems = problemsOf(`file:${far}`);
    expect(problems).toEqual([
      `http.auth_ref: secret file ${far} is outside upstreams.secret_dirs (${fixture.root}, /run/secrets)`,
    ]);
  });

  it('reads from the directories upstreams.secret_dirs names instead', () => {
    const far = outside.writeOutside('far.token', 'far-secret');
    const policy = secretFilePolicy(fixture.dir, { secret_dirs: [outside.root] });
    expect(problemsOf(`file:${far}`, policy)).toEqual([]);
    fixture.writeOutside('near.token', 'near-secret');
    expect(problemsOf('file:../near.token', policy)[0]).toContain(
      'is outside upstreams.secret_dirs',
    );
  });

  it('refuses a symbolic link that leads out of the allowed directories', () => {
    const far = outside.writeOutside('far.token', 'far-secret');
    fs.symlinkSync(far, path.join(fixture.root, 'link.token'));
    const [problem] = problemsOf('file:../link.token');
    expect(problem).toContain('is outside upstreams.secret_dirs');
    expect(problem).toContain(`its links lead to ${fs.realpathSync(far)}`);
    expect(problem).not.toContain('far-secret');
  });

  it('refuses a file over upstreams.secret_max_bytes without reading it', () => {
    fixture.writeOutside('big.token', 'x'.repeat(65));
    const policy = secretFilePolicy(fixture.dir, { secret_max_bytes: 64 });
    const [problem] = problemsOf('file:../big.token', policy);
    expect(problem).toBe(
      `http.auth_ref: secret file ${path.join(fixture.root, 'big.token')} is larger than upstreams.secret_max_bytes: 64 bytes (0.0625 KiB)`,
    );
  });

  it('refuses a secret that cannot be a header value, without quoting it', () => {
    fixture.writeOutside('two-lines.token', 'first-half\nsecond-half');
    const [problem] = problemsOf('file:../two-lines.token');
    expect(problem).toMatch(/^http\.auth_ref: the secret is not a valid HTTP header value/);
    expect(problem).not.toMatch(/first-half|second-half/);
  });

  describeOnLinux('kernel and special files', () => {
    it('refuses /proc/self/environ, even when its directory is allowed, quoting nothing of it', () => {
      const environ = fs.readFileSync('/proc/self/environ', 'utf8');
      const values = environ.split('\0').filter((entry) => entry.length > 8);
      for (const policy of [undefined, secretFilePolicy(fixture.dir, { secret_dirs: ['/proc'] })]) {
        const problems = problemsOf('file:/proc/self/environ', policy);
        expect(problems).toHaveLength(1);
        expect(problems[0]).toMatch(/is outside upstreams\.secret_dirs|is on a kernel filesystem/);
        for (const value of values) expect(problems[0]).not.toContain(value);
      }
    });

    it('refuses a FIFO and a device without blocking on them', () => {
      const fifo = path.join(fixture.root, 'pipe.token');
      execFileSync('mkfifo', [fifo]);
      expect(problemsOf('file:../pipe.token')).toEqual([
        `http.auth_ref: secret file ${fifo} is not a regular file`,
      ]);
      const devices = secretFilePolicy(fixture.dir, { secret_dirs: ['/dev'] });
      expect(problemsOf('file:/dev/zero', devices)).toEqual([
        'http.auth_ref: secret file /dev/zero is not a regular file',
      ]);
    });
  });
});
