#!/usr/bin/env node
import 'reflect-metadata';
import { Command } from 'commander';
import { GATEWAY_VERSION } from '../lifecycle/server-info';
import { registerConfigCommands } from './config.command';
import { registerKeysCommands } from './keys.command';
import { registerListCommands } from './list.commands';
import { registerStartCommand } from './start.command';
import { registerUpstreamsCommands } from './upstreams.command';

/** `owlclaw mcp-server <command>`: the gateway's command line (seed §9.3). */
function buildProgram(): Command {
  const program = new Command('owlclaw')
    .version(GATEWAY_VERSION, '-v, --version')
    .showHelpAfterError();
  const mcpServer = program
    .command('mcp-server')
    .description('Run and inspect the OwlClaw MCP gateway');
  registerStartCommand(mcpServer);
  registerConfigCommands(mcpServer);
  registerListCommands(mcpServer);
  registerUpstreamsCommands(mcpServer);
  registerKeysCommands(mcpServer);
  return program;
}

buildProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    process.stderr.write(`owlclaw: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
