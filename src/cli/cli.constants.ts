/** Where the running gateway's admin API is, when neither --url nor the config says otherwise. */
export const ADMIN_URL_ENV = 'MCP_SERVER_ADMIN_URL';

/** Exit status of `start` when the configuration is invalid (1 is any other failure). */
export const EXIT_BAD_CONFIG = 2;
