import { isMapping } from '../common/is-mapping';
import { keyLabel, Problem } from './config-problem';

/** A key an older sample file sets that nothing here honours, and what to use instead. */
interface RemovedKey {
  path: readonly string[];
  instead: string;
}

/**
 * Refused rather than dropped: a key that loads but does nothing lets an operator believe a
 * setting is in force, so the message says what actually controls that behaviour.
 */
export const REMOVED_KEYS: readonly RemovedKey[] = [
  {
    path: ['tools', 'cache_ttl_seconds'],
    instead:
      `the gateway's own tool list is rebuilt whenever its tools change, never by time; ` +
      `use ${keyLabel(['upstreams', 'tools_cache_ttl_seconds'])} for upstream tool lists, ` +
      `or ${keyLabel(['server', 'cache_ttl_seconds'])} for the freshness hint sent to clients`,
  },
  {
    path: ['logging', 'output'],
    instead:
      'logs always go to stderr (in stdio mode stdout carries the MCP protocol); ' +
      'redirect stderr to send them elsewhere',
  },
];

/**
 * One problem per removed key set in the file's `mcp_server` section, which loses those keys
 * in place so the schema does not report them a second time as unknown.
 */
export function removedKeyProblems(section: unknown, origin: string | undefined): Problem[] {
  const problems: Problem[] = [];
  for (const key of REMOVED_KEYS) {
    const [sectionName, leaf] = key.path;
    const parent = isMapping(section) ? section[sectionName] : undefined;
    if (!isMapping(parent) || !Object.hasOwn(parent, leaf)) continue;
    delete parent[leaf];
    problems.push({
      subject: keyLabel(key.path),
      message: `is no longer a configuration key: ${key.instead}`,
      origin,
    });
  }
  return problems;
}
