import { EXIT_BAD_CONFIG } from '../../src/cli/cli.constants';
import { StdioGatewayProcess } from '../support/stdio-process';

/**
 * A one-character admin token (or metrics token) would be guessed by anyone who can reach the
 * admin API: the built CLI refuses to start with it, naming the variable, and serves nothing.
 */
describe('a guessable admin or metrics token', () => {
  it.each([['MCP_SERVER_ADMIN_TOKEN'], ['MCP_SERVER_METRICS_TOKEN']])(
    '%s of one character stops the start as a configuration error, a message naming it',
    async (name) => {
      const gateway = new StdioGatewayProcess({ env: { [name]: 'x' } });
      const exit = await gateway.exited;
      expect(exit.code).toBe(EXIT_BAD_CONFIG);
      expect(gateway.stderr).toContain(`${name}: is 1 characters long; it must be at least 32`);
      expect(gateway.stderr).not.toContain(`"x"`);
      expect(gateway.stdoutLines).toEqual([]);
    },
  );
});
