import { upstreamRecord } from '../../test/support/upstream-records';
import { errorChain } from './error-chain';
import { UpstreamSecretScrubber } from './upstream-secret.scrubber';

const http = upstreamRecord('remote', {
  transport: 'streamable_http',
  http: {
    url: 'http://alice:pa55-word@127.0.0.1:9/mcp?api_key=k3y-value&region=eu#frag-secret',
    headers: { 'X-Api-Key': 'header-secret-1' },
    auth_ref: 'file:token',
    auth_secret: 'auth-secret-2',
  },
});

describe('UpstreamSecretScrubber', () => {
  const scrubber = new UpstreamSecretScrubber(http);

  it('masks the URL credentials and query values fetch quotes, keeping the host and keys', () => {
    let quoted = '';
    try {
      new Request(http.http!.url);
    } catch (error) {
      quoted = errorChain(scrubber.error(error));
    }
    expect(quoted).toContain('http://127.0.0.1:9/mcp?api_key=***&region=***');
    for (const secret of ['pa55-word', 'alice:', 'k3y-value', 'frag-secret']) {
      expect(quoted).not.toContain(secret);
    }
  });

  it('rewrites header values and the auth_ref secret along the whole cause chain', () => {
    const cause = new TypeError(
      'Headers.append: "Bearer auth-secret-2" is an invalid header value.',
    );
    const error = new Error('connect failed: header-secret-1 refused', { cause });
    const scrubbed = scrubber.error(error) as Error;
    expect(errorChain(scrubbed)).toBe(
      'connect failed: *** refused: Headers.append: "Bearer ***" is an invalid header value.',
    );
    expect(scrubbed.stack).not.toContain('header-secret-1');
    expect(cause.stack).not.toContain('auth-secret-2');
  });

  it('masks an env value and each long word of a multi-line secret, not short common values', () => {
    const stdio = upstreamRecord('local', {
      transport: 'stdio',
      stdio: {
        command: 'node',
        args: [],
        env: { TOKEN: 'env-secret-3', DEBUG: '1', MULTI: 'first-line-secret\nsecond-line-secret' },
        env_from: [],
      },
    });
    const text = new UpstreamSecretScrubber(stdio).text(
      'saw env-secret-3 and second-line-secret after 1 try',
    );
    expect(text).toBe('saw *** and *** after 1 try');
  });

  it('replaces a frozen error it cannot rewrite by its scrubbed text', () => {
    const frozen = Object.freeze(new Error('token header-secret-1 refused'));
    expect(errorChain(scrubber.error(frozen))).toBe('token *** refused');
  });
});
