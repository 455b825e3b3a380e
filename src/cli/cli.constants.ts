/** Where the running gateway's admin API is, when neither --url nor the config says otherwise. */
export const ADMIN_URL_ENV = 'MCP_SERVER_ADMIN_URL';
