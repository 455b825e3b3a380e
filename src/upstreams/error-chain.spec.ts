import { InvalidClientError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { errorChain } from './error-chain';

describe('errorChain', () => {
  it('joins an error with its causes', () => {
    const error = new Error('fetch failed', { cause: new Error('connect ECONNREFUSED') });
    expect(errorChain(error)).toBe('fetch failed: connect ECONNREFUSED');
  });

  it("names an OAuth error's code beside the authorization server's description", () => {
    expect(errorChain(new InvalidClientError('client authentication failed'))).toBe(
      'OAuth invalid_client: client authentication failed',
    );
  });
});
