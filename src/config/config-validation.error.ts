/**
 * Raised when the gateway configuration cannot be turned into a fully valid
 * GatewayConfig. It carries every problem found, not just the first, so an
 * operator fixes the file once instead of once per restart.
 */
export class ConfigValidationError extends Error {
  /**
   * One line per problem, e.g.
   * `mcp_server.http.port: must not be greater than 65535 (from env MCP_SERVER_HTTP_PORT)`.
   */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigValidationError';
    this.problems = [...problems];
  }
}
