import { Command } from 'commander';
import { ADMIN_TOKEN_ENV } from '../admin/admin.constants';
import { PROBE_TIMEOUT_MS } from '../upstreams/upstream-connection.constants';
import { ADMIN_URL_ENV } from './cli.constants';
import type { ListFlags, TestFlags, ValidateFlags } from './upstreams.actions';

/** Loaded when the command runs, so that `--help`, `--version` and other commands stay light. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const action = () => require('./upstreams.actions') as typeof import('./upstreams.actions');

/** `upstreams list | validate [--dry-run] | test <id>`: the registry as the gateway would load it, without starting it. */
export function registerUpstreamsCommands(parent: Command): void {
  const upstreams = parent
    .command('upstreams')
    .description('Inspect the registry of upstream MCP servers (upstreams.registry_dir)');
  upstreams
    .command('list')
    .description('Print the upstream servers the registry loads, and the files it rejects')
    .option('--config <path>', 'config file')
    .option('--json', 'print the registry as JSON (secrets masked)')
    .action((flags: ListFlags) => action().listUpstreams(flags));
  upstreams
    .command('validate')
    .description('Check every registry file; exit 1 if any does not load')
    .option('--config <path>', 'config file')
    .option('--dir <path>', 'registry directory to check instead of upstreams.registry_dir')
    .option(
      '--dry-run',
      `also show what would change against a running gateway (admin API, ${ADMIN_TOKEN_ENV}) or, without a token, against upstreams.registry_dir`,
    )
    .option(
      '--url <url>',
      `the running gateway's base URL (default: ${ADMIN_URL_ENV} or the config's http address)`,
    )
    .action((flags: ValidateFlags) => action().validateUpstreams(flags));
  upstreams
    .command('test <server_id>')
    .description('Connect to one upstream as the gateway would and print its tools/list summary')
    .option('--config <path>', 'config file')
    .option('--timeout <ms>', 'give up after this long', String(PROBE_TIMEOUT_MS))
    .action((serverId: string, flags: TestFlags) => action().testUpstream(serverId, flags));
}
