import { API_KEY_ENTRY } from '../config/config.constants';
import { apiKeyEntry, newApiKey } from '../governance/identity/api-key-entry';
import { printError, printLine } from './cli-output';

const CLIENT_PLACEHOLDER = '<client_id>';

/**
 * `owlclaw mcp-server keys create`: the key and its config entry on stdout,
 * the advice on stderr, so that `> file` captures only what is to be kept.
 */
export function createKey(flags: { client?: string }): void {
  const key = newApiKey();
  const entry = apiKeyEntry(flags.client ?? CLIENT_PLACEHOLDER, key);
  if (flags.client !== undefined && !API_KEY_ENTRY.test(entry)) {
    printError(
      `owlclaw: --client ${JSON.stringify(flags.client)} cannot name a client in auth.api_keys: ` +
        'use 1 to 128 characters among A-Z a-z 0-9 . _ : @ / -',
    );
    process.exitCode = 1;
    return;
  }
  printLine(`key: ${key}`);
  printLine(`auth.api_keys entry: ${entry}`);
  printError(
    'The key is shown once: the gateway keeps only its SHA-256. Give the key to the client ' +
      '(Authorization: Bearer <key>, or MCP_API_KEY over stdio) and add the entry to auth.api_keys ' +
      '(or MCP_SERVER_AUTH_API_KEYS, comma-separated).',
  );
  if (flags.client === undefined) {
    printError(`Replace ${CLIENT_PLACEHOLDER} with the client's id, or pass --client <id>.`);
  }
}
