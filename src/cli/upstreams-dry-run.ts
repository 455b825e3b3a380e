import { GatewayConfig } from '../config/gateway-config';
import { ADMIN_TOKEN_ENV } from '../admin/admin.constants';
import { changedMaskedFields, diffHashes, FieldChange, hashesOf } from '../upstreams/registry-diff';
import { masked } from '../upstreams/upstream-record.masking';
import { UpstreamRegistry } from '../upstreams/upstream-registry';
import { STORED_FILE_PREFIX } from '../upstreams/upstream-records.postgres-store';
import { ADMIN_URL_ENV } from './cli.constants';
import { printError, printLine } from './cli-output';

/** The most a dry run waits for the running gateway. */
const REMOTE_TIMEOUT_MS = 10_000;

interface RemoteServer {
  server_id: string;
  revision: string;
  file: string;
}

/** One side of the comparison: server_id -> record hash, and how to show one record (masked). */
interface Side {
  label: string;
  hashes: Map<string, string>;
  record(serverId: string): Promise<unknown>;
}

/**
 * `upstreams validate --dry-run`: what would change if the gateway loaded the
 * directory as it is now. Against a running gateway's admin API when a token
 * is set (MCP_SERVER_ADMIN_TOKEN, URL from --url, MCP_SERVER_ADMIN_URL or the
 * config's http address); without one, against the configured registry
 * directory (useful with --dir). Records are shown masked; the PostgreSQL
 * records of scale-out mode are left out (the directory cannot change them).
 * Returns false when the running gateway could not be asked.
 */
export async function printDryRun(
  config: GatewayConfig,
  local: UpstreamRegistry,
  configured: () => UpstreamRegistry,
  url?: string,
): Promise<boolean> {
  const token = process.env[ADMIN_TOKEN_ENV];
  let baseline: Side;
  if (token) {
    const base = (url ?? process.env[ADMIN_URL_ENV] ?? defaultUrl(config)).replace(/\/+$/, '');
    try {
      baseline = await remoteSide(base, token);
    } catch (error) {
      printError(
        `dry run: cannot ask the gateway at ${base}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return false;
    }
  } else {
    const registry = configured();
    printLine(
      `dry run: ${ADMIN_TOKEN_ENV} is not set, so no running gateway is asked; comparing with ${registry.dir}`,
    );
    baseline = localSide(registry.dir, registry);
  }
  const current = localSide(local.dir, local);
  const diff = diffHashes(baseline.hashes, current.hashes);
  printLine(`dry run: ${current.label} compared with ${baseline.label}`);
  for (const id of diff.added) printLine(`+ ${id} (added)`);
  for (const id of diff.removed) printLine(`- ${id} (removed)`);
  for (const id of diff.changed) {
    printLine(`~ ${id} (changed)`);
    const fields = await fieldChanges(id, baseline, local);
    for (const change of fields) printLine(`    ${formatChange(change)}`);
  }
  printLine(
    `dry run: ${diff.added.length} added, ${diff.removed.length} removed, ${diff.changed.length} changed`,
  );
  return true;
}

async function fieldChanges(
  id: string,
  baseline: Side,
  local: UpstreamRegistry,
): Promise<FieldChange[]> {
  const after = local.servers.find((s) => s.server_id === id);
  const before = await baseline.record(id);
  if (!after) return [];
  const fields = changedMaskedFields(before, masked(after));
  // Masked sides can look equal while a secret differs: the hashes said they differ.
  return fields.length > 0 ? fields : [{ field: '(a secret value)', before: '***', after: '***' }];
}

function formatChange(change: FieldChange): string {
  const show = (value: unknown) => (value === undefined ? '(absent)' : JSON.stringify(value));
  return `${change.field}: ${show(change.before)} -> ${show(change.after)}`;
}

function localSide(dir: string, registry: UpstreamRegistry): Side {
  return {
    label: `the directory ${dir}`,
    hashes: hashesOf(registry.servers),
    record: (id) => {
      const record = registry.servers.find((s) => s.server_id === id);
      return Promise.resolve(record ? masked(record) : undefined);
    },
  };
}

async function remoteSide(base: string, token: string): Promise<Side> {
  const list = (await getJson(`${base}/admin/mcp/servers`, token)) as {
    registry: { revision: string };
    servers: RemoteServer[];
  };
  const fromDirectory = list.servers.filter((s) => !s.file.startsWith(STORED_FILE_PREFIX));
  return {
    label: `the gateway at ${base} (revision ${list.registry.revision})`,
    hashes: new Map(fromDirectory.map((s) => [s.server_id, s.revision])),
    record: async (id) =>
      (
        (await getJson(`${base}/admin/mcp/servers/${encodeURIComponent(id)}`, token)) as {
          record: unknown;
        }
      ).record,
  };
}

async function getJson(url: string, token: string): Promise<unknown> {
  const res = await fetch(url, {
    headers: { Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res.json();
}

function defaultUrl(config: GatewayConfig): string {
  const host = ['0.0.0.0', '::', ''].includes(config.http.host) ? '127.0.0.1' : config.http.host;
  const scheme = config.http.tls?.enabled ? 'https' : 'http';
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${config.http.port}`;
}
